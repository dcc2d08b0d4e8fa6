// Fills the configured database (DATABASE_URL, or PGlite at PGLITE_DIR) for the bench:
// `--size N` deliveries at about 100 a day back from today (over a year at least, so a 12-month
// report reads the same window at every size), 90% invoiced one invoice each, of those 80% paid,
// 10% part-paid, 10% unpaid (their payments too); the second client (Lafarge) withholds WHT at 5 %
// (decision 1240), so each of its paid invoices is settled by a receipt of its own: the cash as a
// payment of the receipt, the WHT as a withholding, whose certificate is in for those withheld
// over 60 days ago; 50 bench users; the totals recounted. Bulk inserts run with the totals
// triggers off, then pks_rebuild_totals().
// Usage: npx tsx bench/seed.ts --size 100000
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { connect, optionsFromEnv } from "../db/client.server";
import { setConnection } from "../app/db.server";
import { insertUser } from "../app/models/user.server";

const BENCH_PASSWORD = "bench-password-123";
const { values } = parseArgs({
  options: { size: { type: "string", default: "1000" }, users: { type: "string", default: "50" } },
});
const size = Number(values.size);
const users = Number(values.users);

// Bulk inserts of 100,000 rows outlast the app's 5 s statement timeout on a busy machine.
process.env.DB_STATEMENT_TIMEOUT_MS ??= "600000";
const connection = connect(optionsFromEnv());
setConnection(connection);
const { db, close } = await connection;
const admin = await insertUser({
  email: "bench-admin@example.com",
  password: BENCH_PASSWORD,
  role: "admin",
  firstName: "Bench",
  lastName: "Admin",
  mustChangePassword: false,
});
for (let i = 0; i < users; i++) {
  await insertUser({
    email: `bench-user-${i}@example.com`,
    password: BENCH_PASSWORD,
    role: i % 5 === 0 ? "staff" : "manager",
    firstName: "Bench",
    lastName: `User ${i}`,
    mustChangePassword: false,
  });
}
await db.execute(sql`insert into agents (name) select 'Bench Agent ' || g from generate_series(1, 50) g`);
await db.execute(
  sql`insert into clients (name, tax_rate, payment_terms_days) values ('Kodan', 7.5, 30), ('Lafarge', 7.5, 45), ('Dangote', 5, 30)`,
);
// The truck register (docs/decisions/1200): 2,000 plates for /trucks and /api/trucks.
await db.execute(sql`
  insert into trucks (plate, plate_key, transporter, usual_tare_kg, created_by)
  select 'LAG ' || g || ' XY', 'LAG' || g || 'XY', 'Bench Haulage ' || (g % 40), 9000 + g % 5000, ${admin.id}::uuid
  from generate_series(1, 2000) g`);
await db.execute(
  sql`insert into settings (id, buying_rate, selling_rate, offloading_cost) values (1, 52000, 65000, 15000) on conflict (id) do nothing`,
);
// 100 deliveries a day going back, but over a year at least: every size then fills the last 12
// months, so the profit report and the dashboard's trends are measured over the same months at
// 1,000 as at 1,000,000 (decision 1270; the 1,000 seed used to fill 10 days).
const days = Math.max(366, Math.ceil(size / 100));
await db.transaction(async (tx) => {
  await tx.execute(sql`set local session_replication_role = replica`);
  await tx.execute(sql`
    insert into deliveries (date, agent_id, client_id, tons, location, status, created_by, buying_rate, selling_rate, offloading_cost, logistics_cost)
    select current_date - ((g::bigint * ${days}) / ${size})::int, 1 + g % 50, (select min(id) from clients) + g % 3, (10 + g % 30)::numeric, 'Yard ' || (g % 40), 'confirmed',
           ${admin.id}::uuid, 52000, 65000, 15000, 20000
    from generate_series(1, ${size}) g`);
  await tx.execute(sql`
    insert into invoices (invoice_no, delivery_id, client_id, amount, tax_rate, profit, expected_payment_date, payment_status, amount_paid, created_at, issue_date)
    select (126 + row_number() over (order by d.id))::text, d.id, d.client_id, d.tons * 65000, 7.5, d.tons * 13000 - 20000, d.date + 30,
           case when d.id % 10 < 8 then 'paid' when d.id % 10 = 8 then 'partial' else 'pending' end,
           case when d.id % 10 < 8 then d.tons * 65000 when d.id % 10 = 8 then 100000 else 0 end,
           d.date::timestamptz + interval '12 hours', d.date
    from deliveries d where d.id % 10 <> 0`);
  await tx.execute(
    sql`update deliveries set status = 'invoiced', invoice_id = i.id from invoices i where i.delivery_id = deliveries.id`,
  );
  // Lafarge's paid invoices: 10,000 x 5 / 107.5 of each 10,000 withheld, the rest paid by a receipt.
  const lafarge = sql`(select min(id) + 1 from clients)`;
  await tx.execute(sql`update clients set wht_rate = 5 where id = ${lafarge}`);
  await tx.execute(sql`
    update invoices set amount_withheld = round(amount * 5 / 107.5, 2), amount_paid = amount - round(amount * 5 / 107.5, 2)
    where client_id = ${lafarge} and payment_status = 'paid'`);
  await tx.execute(sql`
    insert into receipts (client_id, receipt_date, amount, reference, created_by)
    select client_id, least(current_date, expected_payment_date - 3), amount_paid, 'RCPT-' || id, ${admin.id}::uuid
    from invoices where amount_withheld > 0 order by id`);
  await tx.execute(sql`
    insert into payments (invoice_id, amount, payment_date, reference, receipt_id)
    select i.id, i.amount_paid, least(current_date, i.expected_payment_date - 3), coalesce(r.reference, 'TRF-' || i.id), r.id
    from invoices i left join receipts r on r.reference = 'RCPT-' || i.id where i.amount_paid > 0`);
  await tx.execute(sql`
    insert into withholdings (receipt_id, invoice_id, client_id, withholding_date, wht, vat, created_by)
    select r.id, i.id, i.client_id, r.receipt_date, i.amount_withheld, 0, ${admin.id}::uuid
    from invoices i join receipts r on r.reference = 'RCPT-' || i.id order by r.id`);
  await tx.execute(sql`
    insert into withholding_certificates (withholding_id, certificate_no, received_on, created_by)
    select id, 'FIRS/WHT/' || id, withholding_date + 30, ${admin.id}::uuid from withholdings
    where withholding_date < current_date - 60`);
  // A bank statement (docs/decisions/1241): one line a ten deliveries, a fifth of them debits, the
  // credits naming an invoice, a client, or nothing (matched by amount) in turn.
  await tx.execute(sql`
    insert into bank_accounts (name, mapping) values ('Bench bank', '{"dateColumn":"Date","dateFormat":"dd/MM/yyyy",
      "narrationColumn":"Narration","amountStyle":"split","creditColumn":"Credit"}'::jsonb)`);
  await tx.execute(sql`
    insert into bank_statements (bank_account_id, file_name, lines_read, lines_added)
    select id, 'bench.csv', ${size / 10}, ${size / 10} from bank_accounts`);
  await tx.execute(sql`
    insert into bank_lines (bank_account_id, statement_id, line_date, amount, narration, reference, fingerprint, status)
    select s.bank_account_id, s.id, current_date - (g / 10), case when g % 5 = 0 then -(500 + g) else 650000 + g end,
           case g % 3 when 0 then 'TRF INV ' || (126 + (g * 7) % ${(size * 9) / 10}) when 1 then 'TRF FROM KODAN NIG LTD'
             else 'NIP TRF ' || lpad(g::text, 10, '0') end,
           'BL' || g, md5(g::text), case when g % 5 = 0 then 'not_receipt' else 'unmatched' end
    from bank_statements s, generate_series(1, ${size / 10}) g`);
  await tx.execute(sql`select pks_rebuild_totals()`);
});
await db.execute(sql`analyze`);
await close();
console.log(JSON.stringify({ seeded: size, users }));
