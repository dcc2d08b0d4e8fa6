// Operator tools shared by `npm run db:backup | db:restore | db:check` and the running app
// (PGlite's in-process backup): the reconciliation invariants, the figures a backup records
// and a restore must match, and PGlite's consistent dump. ADR 0703.
import { writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "./client.server";
import { checkAdvances } from "./ops-advances";
import { checkBankLines } from "./ops-bank";
import { checkProfitTotals } from "./ops-reports";
import { checkWeights } from "./ops-weights";

type Row = Record<string, unknown>;

async function rows(db: Db, query: ReturnType<typeof sql>): Promise<Row[]> {
  return rowsOf<Row>(await db.execute(query)) ?? [];
}

/** Counts, sums and the highest invoice number: what a restore must reproduce exactly. */
export type Figures = Record<string, string>;

export async function collectFigures(db: Db): Promise<Figures> {
  const [row] = await rows(
    db,
    sql`select
      (select count(*) from users)::text as users,
      (select count(*) from sessions)::text as sessions,
      (select count(*) from agents)::text as agents,
      (select count(*) from clients)::text as clients,
      (select count(*) from deliveries)::text as deliveries,
      (select count(*) from invoices)::text as invoices,
      (select count(*) from payments)::text as payments,
      (select count(*) from idempotency_keys)::text as idempotency_keys,
      (select coalesce(sum(tons), 0)::text from deliveries) as delivered_tons,
      (select coalesce(sum(amount), 0)::text from invoices) as invoiced_amount,
      (select coalesce(sum(amount_paid), 0)::text from invoices) as invoice_amount_paid,
      (select coalesce(sum(amount), 0)::text from payments) as payments_amount,
      (select coalesce(sum(amount_credited), 0)::text from invoices) as invoice_amount_credited,
      (select coalesce(sum(amount_withheld), 0)::text from invoices) as invoice_amount_withheld,
      (select count(*) from receipts)::text as receipts,
      (select count(*) from withholdings)::text as withholdings,
      (select count(*) from credit_notes)::text as credit_notes,
      (select coalesce(sum(amount), 0)::text from credit_notes) as credit_notes_amount,
      (select count(*) from agent_payouts)::text as agent_payouts,
      (select coalesce(sum(amount), 0)::text from agent_payouts) as agent_payouts_amount,
      (select coalesce(max(invoice_no::bigint)::text, '') from invoices) as highest_invoice_no,
      (select count(*) from delivery_tickets)::text as delivery_tickets,
      (select coalesce(sum(received_tons), 0)::text from deliveries) as received_tons,
      (select count(*) from attachments)::text as attachments,
      -- The photos themselves, byte for byte (docs/decisions/1220): a digest of their digests.
      (select coalesce(md5(string_agg(md5(bytes), '' order by id)), '') from attachments) as attachments_digest`,
  );
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v ?? "")]));
}

export type Breach = { check: string; detail: string };

/** The reconciliation invariants (decision 0703). An empty list means all hold. */
export async function findBreaches(db: Db): Promise<Breach[]> {
  const breaches: Breach[] = [];
  const paid = await rows(
    db,
    sql`select i.invoice_no, i.amount_paid::text as paid, coalesce(sum(p.amount), 0)::text as payments
        from invoices i left join payments p on p.invoice_id = i.id
        group by i.id, i.invoice_no, i.amount_paid
        having i.amount_paid <> coalesce(sum(p.amount), 0)
        order by i.id limit 20`,
  );
  for (const r of paid) {
    breaches.push({
      check: "amount paid equals the sum of payments",
      detail: `invoice ${r.invoice_no}: amountPaid ${r.paid}, payments ${r.payments}`,
    });
  }
  // Credit notes and their reversals (a negative entry each) against the credited total they keep.
  const credited = await rows(
    db,
    sql`select i.invoice_no, i.amount_credited::text as credited, coalesce(sum(c.amount), 0)::text as credits
        from invoices i left join credit_notes c on c.invoice_id = i.id
        group by i.id, i.invoice_no, i.amount_credited
        having i.amount_credited <> coalesce(sum(c.amount), 0)
        order by i.id limit 20`,
  );
  for (const r of credited) {
    breaches.push({
      check: "amount credited equals the sum of credit notes",
      detail: `invoice ${r.invoice_no}: amountCredited ${r.credited}, credit notes ${r.credits}`,
    });
  }
  // What the client withheld against the withholding rows (and their reversals) it keeps
  // (docs/decisions/1240).
  const withheld = await rows(
    db,
    sql`select i.invoice_no, i.amount_withheld::text as withheld, coalesce(sum(w.wht + w.vat), 0)::text as rows
        from invoices i left join withholdings w on w.invoice_id = i.id
        group by i.id, i.invoice_no, i.amount_withheld
        having i.amount_withheld <> coalesce(sum(w.wht + w.vat), 0)
        order by i.id limit 20`,
  );
  for (const r of withheld)
    breaches.push({
      check: "amount withheld equals the sum of withholdings",
      detail: `invoice ${r.invoice_no}: amountWithheld ${r.withheld}, withholdings ${r.rows}`,
    });
  // A receipt's cash is its payments: what the receipt says reached the bank is what landed on
  // invoices (reversals apart).
  const receipts = await rows(
    db,
    sql`select r.id, r.amount::text as amount, coalesce(sum(p.amount), 0)::text as cash
        from receipts r left join payments p on p.receipt_id = r.id and p.reverses_payment_id is null
        group by r.id, r.amount having r.amount <> coalesce(sum(p.amount), 0)
        order by r.id limit 20`,
  );
  for (const r of receipts)
    breaches.push({
      check: "a receipt's cash equals its payments",
      detail: `receipt ${r.id}: amount ${r.amount}, payments ${r.cash}`,
    });
  const over = await rows(
    db,
    sql`select invoice_no, amount::text as amount, amount_paid::text as paid from invoices where amount_paid > amount order by id limit 20`,
  );
  for (const r of over)
    breaches.push({ check: "no invoice over-paid", detail: `invoice ${r.invoice_no}: paid ${r.paid} of ${r.amount}` });
  const duplicates = await rows(
    db,
    sql`select invoice_no, count(*)::int as n from invoices group by invoice_no having count(*) > 1 limit 20`,
  );
  for (const r of duplicates)
    breaches.push({ check: "invoice numbers unique", detail: `${r.invoice_no} used ${r.n} times` });
  const gaps = await rows(
    db,
    sql`with numbers as (select distinct invoice_no::bigint as n from invoices),
             bounds as (select min(n) as lo, max(n) as hi from numbers)
        select g::text as missing from bounds, generate_series(bounds.lo, bounds.hi) g
        where bounds.lo is not null and not exists (select 1 from numbers where numbers.n = g)
        order by g limit 20`,
  );
  if (gaps.length) {
    breaches.push({
      check: "invoice numbers gapless",
      detail: `missing ${gaps.map((r) => r.missing).join(", ")}${gaps.length === 20 ? ", ..." : ""}`,
    });
  }
  const stray = await rows(
    db,
    sql`select d.id, d.status, d.invoice_id, d.client_id, i.client_id as invoice_client
        from deliveries d left join invoices i on i.id = d.invoice_id
        where (d.status = 'invoiced' or d.invoice_id is not null)
          and (i.id is null or i.client_id is distinct from d.client_id or d.status <> 'invoiced')
        order by d.id limit 20`,
  );
  for (const r of stray) {
    breaches.push({
      check: "every invoiced delivery belongs to an invoice of its client",
      detail: `delivery ${r.id}: status ${r.status}, invoice ${r.invoice_id ?? "none"}, client ${r.client_id ?? "none"} vs invoice client ${r.invoice_client ?? "none"}`,
    });
  }
  // Each invoice's profit against its deliveries' (decision 0300, "Profit follows the costs"): the
  // profit rule's SQL form, rounded once. A void invoice's deliveries are freed; it keeps its figure.
  const profits = await rows(
    db,
    sql`select i.invoice_no, i.profit::text as kept, r.profit::text as recount
        from invoices i cross join lateral (
          select round(coalesce(sum(d.invoiced_tons * d.selling_rate), 0) - coalesce(sum(d.paid_tons * coalesce(d.buying_rate, 0)
            + coalesce(d.logistics_cost, 0) + coalesce(d.other_costs, 0)), 0), 2) as profit
          from deliveries d where d.invoice_id = i.id) r
        where i.payment_status <> 'void' and i.profit <> r.profit
        order by i.id limit 20`,
  );
  for (const r of profits) {
    breaches.push({
      check: "invoice profit equals its deliveries' profit",
      detail: `invoice ${r.invoice_no}: profit ${r.kept}, deliveries ${r.recount}`,
    });
  }
  await checkWeights(db, breaches);
  await checkProfitTotals(db, breaches);
  await checkBankLines(db, breaches);
  const twice = await rows(
    db,
    sql`select scope, resource_id, count(*)::int as n from idempotency_keys
        where resource_id is not null group by scope, resource_id having count(*) > 1 limit 20`,
  );
  for (const r of twice)
    breaches.push({
      check: "no idempotency key with two effects",
      detail: `${r.scope} ${r.resource_id} claimed by ${r.n} keys`,
    });
  const keys = await rows(
    db,
    sql`select user_id, key, count(*)::int as n from idempotency_keys group by user_id, key having count(*) > 1 limit 20`,
  );
  for (const r of keys)
    breaches.push({ check: "no idempotency key with two effects", detail: `key ${r.key} stored ${r.n} times` });
  // What each agent has earned and been paid, as kept by the triggers of migration 0008, against
  // a recount (docs/decisions/0980): only approved payouts count as paid (decision 1250).
  const agents = await rows(
    db,
    sql`select a.id, a.name, coalesce(b.earned, 0)::text as kept_earned, coalesce(b.paid, 0)::text as kept_paid,
          coalesce((select sum(round(d.paid_tons * coalesce(d.buying_rate, 0) - coalesce(d.offloading_cost, 0)
            - coalesce(d.mobilization_payment, 0), 2)) from deliveries d
            where d.agent_id = a.id and d.status in ('confirmed', 'invoiced')), 0)::text as earned,
          coalesce((select sum(p.amount) from agent_payouts p where p.agent_id = a.id and p.status = 'approved'), 0)::text as paid
        from agents a left join agent_balances b on b.agent_id = a.id
        where b.agent_id is null
          or b.earned <> coalesce((select sum(round(d.paid_tons * coalesce(d.buying_rate, 0) - coalesce(d.offloading_cost, 0)
            - coalesce(d.mobilization_payment, 0), 2)) from deliveries d
            where d.agent_id = a.id and d.status in ('confirmed', 'invoiced')), 0)
          or b.paid <> coalesce((select sum(p.amount) from agent_payouts p where p.agent_id = a.id and p.status = 'approved'), 0)
        order by a.id limit 20`,
  );
  for (const r of agents)
    breaches.push({
      check: "agent balances equal their deliveries and payouts",
      detail: `agent ${r.id} (${r.name}): kept earned ${r.kept_earned} paid ${r.kept_paid}, recount earned ${r.earned} paid ${r.paid}`,
    });
  await checkAdvances(db, breaches);
  // What each client owes per due date, as kept by the trigger of migration 0010, against a
  // recount from the invoices (docs/decisions/0970).
  const owed = await rows(
    db,
    sql`with recount as (
          select b.client_id, b.due, sum(greatest(b.bal, 0)) as owed, sum(least(b.bal, 0)) as credit
          from (select i.client_id, i.expected_payment_date as due, i.amount - i.amount_paid - i.amount_withheld - i.amount_credited as bal
                from invoices i where i.payment_status <> 'void') b
          group by b.client_id, b.due
        )
        select coalesce(k.client_id, r.client_id) as client_id, coalesce(k.due_date, r.due)::text as due,
          coalesce(k.owed, 0)::text as kept_owed, coalesce(k.credit, 0)::text as kept_credit,
          coalesce(r.owed, 0)::text as owed, coalesce(r.credit, 0)::text as credit
        from client_owed_totals k full join recount r on r.client_id = k.client_id and r.due = k.due_date
        where coalesce(k.owed, 0) <> coalesce(r.owed, 0) or coalesce(k.credit, 0) <> coalesce(r.credit, 0)
        order by 1, 2 limit 20`,
  );
  for (const r of owed)
    breaches.push({
      check: "client owed totals equal their invoices",
      detail: `client ${r.client_id} due ${r.due}: kept owed ${r.kept_owed} credit ${r.kept_credit}, recount owed ${r.owed} credit ${r.credit}`,
    });
  // Each client's balance (migration 0025, the Receivables page) against its due-date rows,
  // which the check above holds to the invoices.
  const balances = await rows(
    db,
    sql`with recount as (
          select client_id, sum(owed) as owed, sum(credit) as credit from client_owed_totals group by client_id
        )
        select coalesce(k.client_id, r.client_id) as client_id,
          coalesce(k.owed, 0)::text as kept_owed, coalesce(k.credit, 0)::text as kept_credit,
          coalesce(r.owed, 0)::text as owed, coalesce(r.credit, 0)::text as credit
        from client_balances k full join recount r on r.client_id = k.client_id
        where coalesce(k.owed, 0) <> coalesce(r.owed, 0) or coalesce(k.credit, 0) <> coalesce(r.credit, 0)
        order by 1 limit 20`,
  );
  for (const r of balances)
    breaches.push({
      check: "client balances equal their due dates",
      detail: `client ${r.client_id}: kept owed ${r.kept_owed} credit ${r.kept_credit}, due dates owed ${r.owed} credit ${r.credit}`,
    });
  // No payment or credit note row on a void invoice (migration 0030): the statements leave a void
  // invoice's rows out while the kept day totals count them, and no total catches a payment and
  // its reversal, which add up to nothing.
  const onVoid = await rows(
    db,
    sql`select v.invoice_no, v.payments, v.credit_notes from (
          select i.id, i.invoice_no,
            (select count(*) from payments p where p.invoice_id = i.id)::int as payments,
            (select count(*) from credit_notes c where c.invoice_id = i.id)::int as credit_notes
          from invoices i where i.payment_status = 'void'
        ) v
        where v.payments + v.credit_notes > 0
        order by v.id limit 20`,
  );
  for (const r of onVoid)
    breaches.push({
      check: "no payment or credit note on a void invoice",
      detail: `invoice ${r.invoice_no}: ${r.payments} payment rows, ${r.credit_notes} credit note rows`,
    });
  // The payments kept per client and day (migration 0004), which the Payments totals, the
  // statements' balances and totals and a statement page's reach read (decision 0970).
  const paymentDays = await rows(
    db,
    sql`with recount as (
          select p.payment_date, i.client_id, count(*)::int as n, sum(p.amount) as amount
          from payments p join invoices i on i.id = p.invoice_id group by 1, 2
        )
        select coalesce(k.client_id, r.client_id) as client_id, coalesce(k.payment_date, r.payment_date)::text as day,
          coalesce(k.n, 0) as kept_n, coalesce(k.amount, 0)::text as kept_amount,
          coalesce(r.n, 0) as n, coalesce(r.amount, 0)::text as amount
        from payment_day_totals k full join recount r on r.client_id = k.client_id and r.payment_date = k.payment_date
        where coalesce(k.n, 0) <> coalesce(r.n, 0) or coalesce(k.amount, 0) <> coalesce(r.amount, 0)
        order by 1, 2 limit 20`,
  );
  for (const r of paymentDays)
    breaches.push({
      check: "payment day totals equal their payments",
      detail: `client ${r.client_id} on ${r.day}: kept ${r.kept_n} for ${r.kept_amount}, recount ${r.n} for ${r.amount}`,
    });
  // The invoice status roll-up of migration 0011 (the summary cards) against a recount.
  const rollup = await rows(
    db,
    sql`with recount as (
          select payment_status, amount_paid + amount_withheld + amount_credited < amount as owed, count(*)::int as n,
            sum(amount) as amount, sum(amount_paid) as paid, sum(amount_credited) as credited, sum(amount_withheld) as withheld
          from invoices where payment_status <> 'void' group by 1, 2
        )
        select coalesce(k.payment_status, r.payment_status) as status, coalesce(k.owed, r.owed) as owed,
          coalesce(k.n, 0) as kept_n, coalesce(k.amount, 0)::text as kept_amount, coalesce(r.n, 0) as n,
          coalesce(r.amount, 0)::text as amount
        from invoice_status_rollup k full join recount r on r.payment_status = k.payment_status and r.owed = k.owed
        where coalesce(k.n, 0) <> coalesce(r.n, 0) or coalesce(k.amount, 0) <> coalesce(r.amount, 0)
          or coalesce(k.amount_paid, 0) <> coalesce(r.paid, 0) or coalesce(k.amount_credited, 0) <> coalesce(r.credited, 0)
          or coalesce(k.amount_withheld, 0) <> coalesce(r.withheld, 0)
        order by 1, 2 limit 20`,
  );
  for (const r of rollup)
    breaches.push({
      check: "invoice status roll-up equals the invoices",
      detail: `${r.status}${r.owed ? " (owed)" : ""}: kept ${r.kept_n} invoices of ${r.kept_amount}, recount ${r.n} of ${r.amount}`,
    });
  // The tax report's totals of migration 0019 against a recount from the invoices and credit
  // notes, one document's tax at a time (docs/decisions/0990).
  const tax = await rows(
    db,
    sql`with docs as (
          select date_trunc('month', i.issue_date)::date as month, i.tax_rate,
            case when i.payment_status <> 'void' then 1 else 0 end as invoices,
            case when i.payment_status <> 'void' then i.amount else 0 end as invoiced,
            case when i.payment_status <> 'void' then pks_tax_contained(i.amount, i.tax_rate) else 0 end as invoice_tax,
            case when i.payment_status = 'void' then 1 else 0 end as voids,
            0 as notes, 0 as reversals, 0::numeric as credited, 0::numeric as credit_tax
          from invoices i
          union all
          select date_trunc('month', c.issue_date)::date, i.tax_rate, 0, 0, 0, 0,
            case when c.reverses_credit_note_id is null then 1 else 0 end,
            case when c.reverses_credit_note_id is null then 0 else 1 end, c.amount,
            pks_tax_contained(c.amount, i.tax_rate)
          from credit_notes c join invoices i on i.id = c.invoice_id
        ), recount as (
          select month, tax_rate, sum(invoices)::int as invoices, sum(invoiced) as invoiced, sum(invoice_tax) as invoice_tax,
            sum(voids)::int as voids, sum(notes)::int as notes, sum(reversals)::int as reversals,
            sum(credited) as credited, sum(credit_tax) as credit_tax
          from docs group by month, tax_rate
        )
        select coalesce(k.month, r.month)::text as month, coalesce(k.tax_rate, r.tax_rate)::text as rate,
          coalesce(k.invoiced, 0)::text as kept_invoiced, coalesce(k.invoice_tax, 0)::text as kept_tax,
          coalesce(k.credit_tax, 0)::text as kept_credit_tax,
          coalesce(r.invoiced, 0)::text as invoiced, coalesce(r.invoice_tax, 0)::text as tax,
          coalesce(r.credit_tax, 0)::text as credit_tax
        from tax_month_totals k full join recount r on r.month = k.month and r.tax_rate = k.tax_rate
        where coalesce(k.invoice_count, 0) <> coalesce(r.invoices, 0) or coalesce(k.invoiced, 0) <> coalesce(r.invoiced, 0)
          or coalesce(k.invoice_tax, 0) <> coalesce(r.invoice_tax, 0) or coalesce(k.void_count, 0) <> coalesce(r.voids, 0)
          or coalesce(k.credit_note_count, 0) <> coalesce(r.notes, 0)
          or coalesce(k.reversal_count, 0) <> coalesce(r.reversals, 0)
          or coalesce(k.credited, 0) <> coalesce(r.credited, 0) or coalesce(k.credit_tax, 0) <> coalesce(r.credit_tax, 0)
        order by 1, 2 limit 20`,
  );
  for (const r of tax)
    breaches.push({
      check: "tax report totals equal their invoices and credit notes",
      detail: `${String(r.month).slice(0, 7)} at ${r.rate}%: kept sales ${r.kept_invoiced} tax ${r.kept_tax} credited tax ${r.kept_credit_tax}, recount sales ${r.invoiced} tax ${r.tax} credited tax ${r.credit_tax}`,
    });
  // What clients withheld per month (migration 0041, docs/decisions/1240) against a recount of
  // the withholdings, reversals counted back in their own month.
  const withheldMonths = await rows(
    db,
    sql`with recount as (
          select date_trunc('month', w.withholding_date)::date as month,
            count(*) filter (where w.reverses_withholding_id is null)::int as n,
            count(*) filter (where w.reverses_withholding_id is not null)::int as reversals,
            sum(w.wht) as wht, sum(w.vat) as vat
          from withholdings w group by 1
        )
        select coalesce(k.month, r.month)::text as month, coalesce(k.wht, 0)::text as kept_wht,
          coalesce(k.vat, 0)::text as kept_vat, coalesce(r.wht, 0)::text as wht, coalesce(r.vat, 0)::text as vat
        from withholding_month_totals k full join recount r on r.month = k.month
        where coalesce(k.withholding_count, 0) <> coalesce(r.n, 0)
          or coalesce(k.reversal_count, 0) <> coalesce(r.reversals, 0)
          or coalesce(k.wht, 0) <> coalesce(r.wht, 0) or coalesce(k.vat, 0) <> coalesce(r.vat, 0)
        order by 1 limit 20`,
  );
  for (const r of withheldMonths)
    breaches.push({
      check: "withholding month totals equal their withholdings",
      detail: `${String(r.month).slice(0, 7)}: kept WHT ${r.kept_wht} VAT ${r.kept_vat}, recount WHT ${r.wht} VAT ${r.vat}`,
    });
  return breaches;
}

export function describeBreaches(breaches: Breach[]) {
  if (!breaches.length) return "db:check: all invariants hold";
  return ["db:check: BREACH", ...breaches.map((b) => `  - ${b.check}: ${b.detail}`)].join("\n");
}

/** The differences between two sets of figures (empty when they match). */
export function compareFigures(expected: Figures, actual: Figures) {
  return Object.keys(expected)
    .filter((k) => expected[k] !== actual[k])
    .map((k) => `${k}: backup ${expected[k]}, restored ${actual[k]}`);
}

export type Manifest = {
  driver: "postgres" | "pglite";
  createdAt: string;
  tookMs: number;
  figures: Figures;
  format: string;
};

export function manifestPath(file: string) {
  return `${file}.manifest.json`;
}

export function writeManifest(file: string, manifest: Manifest) {
  writeFileSync(manifestPath(file), `${JSON.stringify(manifest, null, 2)}\n`);
}

type PGliteLike = {
  exec: (query: string) => Promise<unknown>;
  dumpDataDir: (compression?: "auto" | "gzip" | "none") => Promise<File | Blob>;
};

/**
 * PGlite's consistent backup: `hold` keeps every other query out (the app's connection gate),
 * so no transaction is open; a CHECKPOINT writes everything down; the figures and the data
 * directory tarball then describe the same moment. Writes wait (bounded) meanwhile.
 */
export async function backupPglite(
  client: PGliteLike,
  db: Db,
  file: string,
  hold: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
): Promise<Manifest> {
  const started = Date.now();
  const { figures, bytes } = await hold(async () => {
    await client.exec("checkpoint");
    const figures = await collectFigures(db);
    const dump = await client.dumpDataDir("gzip");
    return { figures, bytes: new Uint8Array(await dump.arrayBuffer()) };
  });
  const tmp = `${file}.partial`;
  writeFileSync(tmp, bytes);
  const { renameSync } = await import("node:fs");
  renameSync(tmp, file);
  const manifest: Manifest = {
    driver: "pglite",
    format: "pglite-datadir-tar-gzip",
    createdAt: new Date(started).toISOString(),
    tookMs: Date.now() - started,
    figures,
  };
  writeManifest(file, manifest);
  return manifest;
}
