// The Withholding page's filters read indexes at scale (docs/decisions/0500, 1240), on PostgreSQL,
// whose planner is the one a business at this size runs: 20,000 withholdings over two clients,
// the older 70 % with their certificate, some reversed. Each page (every status, one client's,
// first and deep) walks withholdings_date_idx or withholdings_client_date_idx newest first and asks
// the certificates' and the reversals' unique indexes about each row it meets (the `exists` of
// "received" and the `not exists` of "outstanding"): never a sequential scan of the withholdings.
import { sql, type SQLWrapper } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "../../app/db.server";
import { withholdingPageQuery, type WithholdingFilters } from "../../app/presenters/withholdings.server";
import type { PageRequest } from "../../app/utils/params";
import { testDriver } from "../db/template";
import { createAgent, createClient, createUser } from "../factories";

const ROWS = 20_000;
const FIRST: PageRequest = { cursor: null, direction: "older" };
const DEEP: PageRequest = { cursor: { key: "2021-06-01", id: 9000 }, direction: "older" };
const NEWER: PageRequest = { cursor: { key: "2021-06-01", id: 9000 }, direction: "newer" };
let clientA: number;

async function plan(query: SQLWrapper) {
  const db = await getDb();
  return rowsOf<Record<string, unknown>>(await db.execute(sql`explain ${query}`))
    .map((r) => String(Object.values(r)[0]))
    .join("\n");
}

describe.runIf(testDriver() === "postgres")("the Withholding page at 20,000 withholdings", () => {
  beforeAll(async () => {
    const db = await getDb();
    const userId = (await createUser({ role: "manager" })).id;
    const agentId = (await createAgent()).id;
    clientA = (await createClient({ name: "Plan Client A", whtRate: "5.00" })).id;
    const clientB = (await createClient({ name: "Plan Client B", whtRate: "5.00" })).id;
    // Bulk load with the triggers off (as the scale test and the bench do), then one recount.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into deliveries (date, agent_id, client_id, tons, location, status, created_by, buying_rate, selling_rate)
        select date '2020-01-01' + (g % 1500), ${agentId}, case when g % 2 = 0 then ${clientA}::int else ${clientB}::int end,
               10, 'Yard', 'invoiced', ${userId}::uuid, 52000, 65000
        from generate_series(1, ${ROWS}) g`);
      await tx.execute(sql`
        insert into invoices (invoice_no, delivery_id, client_id, amount, tax_rate, profit, expected_payment_date,
            payment_status, amount_paid, amount_withheld, created_at, issue_date)
        select (300000 + d.id)::text, d.id, d.client_id, 650000, 0, 130000, d.date + 30, 'paid', 617500, 32500,
               d.date::timestamptz, d.date
        from deliveries d where d.created_by = ${userId}::uuid`);
      await tx.execute(sql`
        insert into receipts (client_id, receipt_date, amount, reference)
        select client_id, issue_date + 20, 617500, 'TRF-' || id from invoices where invoice_no::bigint > 300000`);
      await tx.execute(sql`
        insert into payments (invoice_id, amount, payment_date, reference, receipt_id)
        select i.id, 617500, r.receipt_date, r.reference, r.id
        from invoices i join receipts r on r.reference = 'TRF-' || i.id`);
      await tx.execute(sql`
        insert into withholdings (receipt_id, invoice_id, client_id, withholding_date, wht, vat)
        select r.id, i.id, i.client_id, r.receipt_date, 32500, 0
        from invoices i join receipts r on r.reference = 'TRF-' || i.id`);
      // The older 70 % have their certificate; every 500th is reversed.
      await tx.execute(sql`
        insert into withholding_certificates (withholding_id, certificate_no, received_on)
        select id, 'FIRS/' || id, withholding_date + 40 from withholdings
        where withholding_date < (select percentile_disc(0.7) within group (order by withholding_date) from withholdings)`);
      await tx.execute(sql`
        insert into withholdings (receipt_id, invoice_id, client_id, withholding_date, wht, vat, reverses_withholding_id)
        select receipt_id, invoice_id, client_id, withholding_date + 1, -wht, -vat, id from withholdings
        where id % 500 = 0`);
      await tx.execute(sql`select pks_rebuild_totals()`);
    });
    await db.execute(sql`analyze`);
  }, 180_000);

  const cases: [string, WithholdingFilters, PageRequest][] = [
    ["every status", {}, FIRST],
    ["outstanding", { status: "outstanding" }, FIRST],
    ["outstanding, deep", { status: "outstanding" }, DEEP],
    ["outstanding, newer", { status: "outstanding" }, NEWER],
    ["received", { status: "received" }, FIRST],
    ["received, deep", { status: "received" }, DEEP],
    ["one client's outstanding", { status: "outstanding", clientId: 0 }, FIRST],
    ["one client's received, deep", { status: "received", clientId: 0 }, DEEP],
    ["outstanding, dated", { status: "outstanding", from: "2021-01-01", to: "2021-12-31" }, FIRST],
  ];

  it.each(cases)("%s: an index walk, the certificates and reversals by their keys", async (_, given, page) => {
    const db = await getDb();
    const filters = given.clientId === 0 ? { ...given, clientId: clientA } : given;
    const text = await plan(withholdingPageQuery(db, filters, page, 50));
    expect(text, text).not.toMatch(/Seq Scan on withholdings\b/);
    expect(text, text).not.toMatch(/Seq Scan on withholding_certificates\b/);
    expect(text, text).toMatch(filters.clientId ? /withholdings_client_date_idx/ : /withholdings_(client_)?date_idx/);
    expect(text, text).toMatch(/withholding_certificates_withholding_idx/);
    expect(text, text).toMatch(/withholdings_reverses_idx/);
  });

  it("finds what each status asks for", async () => {
    const db = await getDb();
    const outstanding = await withholdingPageQuery(db, { status: "outstanding" }, FIRST, 50);
    expect(outstanding).toHaveLength(51);
    expect(outstanding.every((r) => r.certificateNo === null)).toBe(true);
    const received = await withholdingPageQuery(db, { status: "received" }, FIRST, 50);
    expect(received).toHaveLength(51);
    expect(received.every((r) => r.certificateNo !== null)).toBe(true);
  });
});
