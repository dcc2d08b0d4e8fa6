// Decisions 0500, 0502: every list and aggregate reads an index or a totals table, never a whole table;
// the totals the triggers keep equal a recount; invoice numbers stay gapless under 50
// concurrent invoices. 20,000 generated deliveries, 90% invoiced, most invoices paid.
import { sql, type SQLWrapper } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema } from "../../app/db.server";
import { createDelivery as createDeliveryModel } from "../../app/services/deliveries/create-delivery.server";
import { updateDelivery } from "../../app/models/delivery-changes.server";
import {
  invoicePageQuery,
  invoiceSummary,
  invoiceSummaryQuery,
  listInvoices,
  urgentInvoicesQuery,
} from "../../app/presenters/invoice-list.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { loadManagerDashboard } from "../../app/presenters/manager-dashboard.server";
import { receivablesPageQuery, receivablesTotalsQuery } from "../../app/presenters/receivables.server";
import {
  creditMoveTargetsQuery,
  listPayments,
  paymentPageQuery,
  paymentTotals,
  paymentTotalsQuery,
} from "../../app/presenters/payments.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { listMonths, monthDetailsQuery, monthsPageQuery } from "../../app/presenters/reconciliation.server";
import {
  taxMonthCreditNotesQuery,
  taxMonthInvoicesQuery,
  taxMonthsPageQuery,
} from "../../app/presenters/tax-report.server";
import * as apiInvoices from "../../app/routes/api.invoices";
import * as apiPayments from "../../app/routes/api.payments";
import { balanceOf, effectiveStatus, isOwed, isVoid } from "../../app/rules/invoices.server";
import { todayIn } from "../../app/utils/dates";
import { add, toFixed } from "../../app/utils/money";
import type { PageRequest } from "../../app/utils/params";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import type { Db } from "../../db/client.server";
import { findBreaches } from "../../db/ops";

const ROWS = 20_000;
const FIRST: PageRequest = { cursor: null, direction: "older" };
const today = "2026-06-01";
/** Who reads the invoice, payment and reconciliation lists here: an admin (they are manager/admin reads). */
const READER = { id: "00000000-0000-4000-8000-000000000000", role: "admin" } as const;
let clientA: number;
let clientB: number;
let agentId: number;
let userId: string;

type Row = Record<string, unknown>;

async function plan(query: SQLWrapper) {
  const db = await getDb();
  return rowsOf<Row>(await db.execute(sql`explain ${query}`))
    .map((r) => String(Object.values(r)[0]))
    .join("\n");
}

/** Reads an index (or only a small totals table), never a whole big table. */
function expectIndexed(text: string, label: string) {
  expect(text, `${label}\n${text}`).not.toMatch(/Seq Scan on (deliveries|invoices|payments)\b/);
}

beforeAll(async () => {
  const db = await getDb();
  const user = await createUser({ role: "manager" });
  userId = user.id;
  agentId = (await createAgent()).id;
  clientA = (await createClient({ name: "Scale Client A", paymentTermsDays: 30 })).id;
  clientB = (await createClient({ name: "Scale Client B", paymentTermsDays: 30 })).id;
  // Bulk load with the totals triggers off (as the bench does), then one recount.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into deliveries (date, agent_id, client_id, tons, location, status, created_by, buying_rate, selling_rate)
      select date '2020-01-01' + (g % 1500), ${agentId}, case when g % 2 = 0 then ${clientA}::int else ${clientB}::int end,
             (10 + g % 30)::numeric, 'Yard ' || (g % 40), 'confirmed', ${userId}::uuid, 52000, 65000
      from generate_series(1, ${ROWS}) g`);
    await tx.execute(sql`
      insert into invoices (invoice_no, delivery_id, client_id, amount, tax_rate, profit, expected_payment_date, payment_status, amount_paid, created_at, issue_date)
      select (200000 + d.id)::text, d.id, d.client_id, d.tons * 65000, 0, d.tons * 13000, d.date + 30,
             case when d.id % 10 < 7 then 'paid' when d.id % 10 = 7 then 'partial' else 'pending' end,
             case when d.id % 10 < 7 then d.tons * 65000 when d.id % 10 = 7 then 1000 else 0 end,
             d.date::timestamptz, d.date
      from deliveries d where d.id % 10 <> 0 and d.created_by = ${userId}::uuid`);
    await tx.execute(
      sql`update deliveries set status = 'invoiced', invoice_id = i.id from invoices i where i.delivery_id = deliveries.id`,
    );
    await tx.execute(sql`
      insert into payments (invoice_id, amount, payment_date, reference)
      select id, amount_paid, expected_payment_date - 5, 'TRF-' || id from invoices where amount_paid > 0`);
    // A credit note on every 20th invoice, dated a few days after it (the tax report's lists).
    await tx.execute(sql`
      insert into credit_notes (credit_note_no, invoice_id, amount, reason, issue_date)
      select 'CN-' || row_number() over (order by id), id, 100, 'Scale credit', issue_date + 3
      from invoices where id % 20 = 0`);
    await tx.execute(sql`update invoices set amount_credited = 100 where id % 20 = 0`);
    await tx.execute(sql`update credit_note_counter set last_no = (select count(*) from credit_notes)`);
    await tx.execute(sql`select pks_rebuild_totals()`);
  });
  await db.execute(sql`analyze`);
}, 180_000);

describe("every list and aggregate reads an index at 20,000 deliveries", () => {
  it("invoice pages, per filter, first and deep", async () => {
    const db = await getDb();
    const deep: PageRequest = { cursor: { key: null, id: 9000 }, direction: "older" };
    const newer: PageRequest = { cursor: { key: null, id: 9000 }, direction: "newer" };
    const cases = [
      ["all", {}, FIRST],
      ["all, deep", {}, deep],
      ["all, newer", {}, newer],
      ["pending", { status: "pending" as const }, FIRST],
      ["partial", { status: "partial" as const }, deep],
      ["paid", { status: "paid" as const }, FIRST],
      ["overdue", { status: "overdue" as const }, FIRST],
      ["client credit", { status: "credit" as const }, FIRST],
      ["client", { clientId: clientA }, deep],
      ["invoice number", { invoiceNo: "205000" }, FIRST],
      ["due range", { from: "2021-01-01", to: "2021-02-01" }, FIRST],
    ] as const;
    for (const [label, filters, page] of cases) {
      expectIndexed(await plan(invoicePageQuery(db, filters, page, 50, today)), `invoices ${label}`);
    }
    expect(await plan(invoicePageQuery(db, { clientId: clientA }, deep, 50, today))).toMatch(
      /invoices_client_id_idx|invoices_pkey/,
    );
    expect(await plan(invoicePageQuery(db, { status: "pending" }, FIRST, 50, today))).toMatch(
      /invoices_status_id_idx|invoices_pkey/,
    );
    expect(await plan(invoicePageQuery(db, { status: "credit" }, FIRST, 50, today))).toMatch(/invoices_credit_id_idx/);
    expect(await plan(urgentInvoicesQuery(db, 6))).toMatch(/invoices_owed_due_idx/);
    const targets = await plan(creditMoveTargetsQuery(db, clientA, 1));
    expectIndexed(targets, "Apply Credit's invoices");
    expect(targets).toMatch(/invoices_client_owed_due_idx/);
  });

  it("payment pages, per filter", async () => {
    const db = await getDb();
    const deep: PageRequest = { cursor: { key: "2022-01-01", id: 5000 }, direction: "older" };
    const cases = [
      ["all", {}, FIRST],
      ["all, deep", {}, deep],
      ["dates", { from: "2021-01-01", to: "2021-03-01" }, FIRST],
      ["client", { clientId: clientB }, deep],
      ["invoice number", { invoiceNo: "205001" }, FIRST],
      ["reference", { reference: "TRF-1" }, FIRST],
    ] as const;
    for (const [label, filters, page] of cases) {
      expectIndexed(await plan(paymentPageQuery(db, filters, page, 50)), `payments ${label}`);
    }
    expect(await plan(paymentPageQuery(db, {}, deep, 50))).toMatch(/payments_date_idx/);
  });

  it("summary cards, payment totals, months and month details", async () => {
    const db = await getDb();
    // The roll-up's few rows, and of the due-date rows only the owed ones due from today on.
    const summary = await plan(invoiceSummaryQuery(db, today));
    expect(summary).toMatch(/invoice_status_rollup/);
    expect(summary).toMatch(/invoice_status_totals_owed_due_idx/);
    expect(summary).not.toMatch(/Seq Scan on invoice_status_totals\b/);
    expect(summary).not.toMatch(/ on invoices\b/);
    for (const filters of [{}, { clientId: clientA }, { from: "2021-01-01", to: "2021-12-31" }]) {
      const text = await plan(paymentTotalsQuery(db, filters));
      expect(text).toMatch(/payment_day_totals/);
      expect(text).not.toMatch(/ on payments\b/);
    }
    expectIndexed(await plan(paymentTotalsQuery(db, { invoiceNo: "205001" })), "payment totals by invoice");
    const months = await plan(monthsPageQuery(db, { cursor: "2022-06", direction: "older" }));
    expect(months).toMatch(/delivery_month_totals/);
    expect(months).not.toMatch(/ on deliveries\b/);
    const details = await plan(
      monthDetailsQuery(db, "2021-03", { cursor: { key: "2021-03-15", id: 100 }, direction: "older" }, 50),
    );
    expectIndexed(details, "month details");
    expect(details).toMatch(/deliveries_date_idx/);
    // The tax report (docs/decisions/0990): months from the kept totals, a month's documents
    // through the (issue_date, id) indexes, first page and deep.
    const taxMonths = await plan(taxMonthsPageQuery({ cursor: "2022-06", direction: "older" }));
    expect(taxMonths).toMatch(/tax_month_totals/);
    expect(taxMonths).toMatch(/withholding_month_totals/);
    expect(taxMonths).not.toMatch(/ on (invoices|credit_notes|withholdings)\b/);
    for (const page of [FIRST, { cursor: { key: "2021-03-15", id: 100 }, direction: "older" as const }]) {
      const invoices = await plan(taxMonthInvoicesQuery(db, "2021-03", page, 50));
      expectIndexed(invoices, "a tax month's invoices");
      expect(invoices).toMatch(/invoices_issue_date_idx/);
      expect(await plan(taxMonthCreditNotesQuery(db, "2021-03", page, 50))).toMatch(/credit_notes_issue_date_idx/);
    }
  });

  it("receivables: each client's recent due dates through client_owed_totals' key", async () => {
    // Here a few hundred due-date rows owe something: a scan of them all is cheaper than the key,
    // and the planner rightly takes it. The table grows with the days a client has owed on, so
    // the plan is checked at the size of years of unpaid invoices: 30 years of days for each of
    // three clients, added and measured inside a transaction that is then rolled back.
    const db = await getDb();
    const plans: string[] = [];
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`
          with c as (insert into clients (name) select 'Aged client ' || g from generate_series(1, 3) g returning id)
          insert into client_owed_totals (client_id, due_date, owed)
          select c.id, date '2000-01-01' + d, 100 from c cross join generate_series(0, 10999) d`);
        await tx.execute(sql`
          insert into client_balances (client_id, owed)
          select client_id, sum(owed) from client_owed_totals group by client_id
          on conflict (client_id) do update set owed = excluded.owed`);
        await tx.execute(sql`analyze client_owed_totals`);
        await tx.execute(sql`analyze client_balances`);
        for (const query of [
          receivablesPageQuery("2030-01-01", null, 51),
          receivablesPageQuery("2030-01-01", "aged client 1", 51),
          receivablesTotalsQuery("2030-01-01"),
        ]) {
          const text = rowsOf<Row>(await tx.execute(sql`explain ${query}`))
            .map((r) => String(Object.values(r)[0]))
            .join("\n");
          plans.push(text);
        }
        throw new Error("rollback");
      })
      .catch((error: Error) => {
        if (error.message !== "rollback") throw error;
      });
    expect(plans).toHaveLength(3);
    for (const text of plans) {
      expect(text, text).toMatch(/client_owed_totals_client_id_due_date_pk/);
      expect(text, text).not.toMatch(/Seq Scan on client_owed_totals\b/);
      expect(text, text).not.toMatch(/ on invoices\b/);
    }
  });

  it("the dashboard adds up the same as counting the tables", async () => {
    const db = await getDb();
    const manager = await createUser({ role: "manager" });
    const data = await loadManagerDashboard(manager, new Date(`${today}T12:00:00Z`));
    const [counted] = rowsOf<Row>(
      await db.execute(sql`select count(*) filter (where status in ('confirmed','invoiced'))::int as total,
        count(*) filter (where status = 'invoiced')::int as invoiced,
        round(sum(tons * selling_rate - (tons * coalesce(buying_rate,0) + coalesce(logistics_cost,0) + coalesce(other_costs,0)))
          filter (where status in ('confirmed','invoiced') and selling_rate is not null), 2)::text as profit from deliveries`),
    );
    const [money] = rowsOf<Row>(
      await db.execute(sql`select sum(amount)::numeric(18,2)::text as invoiced, sum(amount_paid)::numeric(18,2)::text as paid,
        count(*) filter (where amount_paid < amount and expected_payment_date < ${today})::int as overdue from invoices`),
    );
    expect(data).toMatchObject({
      totalDeliveries: counted.total,
      invoicedDeliveries: counted.invoiced,
      totalProfit: counted.profit,
    });
    expect(data).toMatchObject({ totalInvoiced: money.invoiced, totalPaid: money.paid, overdue: money.overdue });
    expect(data.pendingInvoices).toHaveLength(6);
  });

  it("the week's money owed per day adds up the invoices issued each day", async () => {
    const db = await getDb();
    const manager = await createUser({ role: "manager" });
    // A week inside the data, where every day has invoices issued, some still owed.
    const data = await loadManagerDashboard(manager, new Date("2022-06-01T12:00:00Z"));
    const counted = rowsOf<{ day: string; owed: string }>(
      await db.execute(sql`select d::date::text as day,
          (select coalesce(sum(amount - amount_paid - amount_credited) filter (where amount_paid + amount_credited < amount
            and payment_status <> 'void'), 0) from invoices where issue_date = d::date)::text as owed
        from generate_series(date '2022-05-26', date '2022-06-01', interval '1 day') d order by 1`),
    );
    expect(counted.filter((c) => Number(c.owed) > 0).length).toBeGreaterThanOrEqual(3);
    expect(data.outstandingSeries).toEqual(counted.map((c) => c.owed));
  });
});

describe("the summary cards from the status roll-up", () => {
  // A day inside the data: some owed invoices are past their due date, some are not yet due.
  it("equal every invoice counted by the status it shows, before and after settling some", async () => {
    const db = await getDb();
    const day = "2022-06-01";
    const counted = async () => {
      const counts = { pending: 0, partial: 0, overdue: 0, paid: 0 };
      const sums = {
        invoiced: [] as string[],
        paid: [] as string[],
        credited: [] as string[],
        withheld: [] as string[],
        owed: [] as string[],
      };
      for (const invoice of await db.select().from(schema.invoices)) {
        if (isVoid(invoice)) continue;
        const shown = effectiveStatus(invoice, day);
        if (shown !== "void") counts[shown] += 1;
        sums.invoiced.push(invoice.amount);
        sums.paid.push(invoice.amountPaid);
        sums.credited.push(invoice.amountCredited);
        sums.withheld.push(invoice.amountWithheld);
        if (isOwed(invoice)) sums.owed.push(balanceOf(invoice));
      }
      return {
        ...counts,
        invoiced: toFixed(add(...sums.invoiced)),
        paidAmount: toFixed(add(...sums.paid)),
        creditedAmount: toFixed(add(...sums.credited)),
        // What clients withheld (decision 1240).
        withheldAmount: toFixed(add(...sums.withheld)),
        outstanding: toFixed(add(...sums.owed)),
      };
    };
    const [before] = await invoiceSummaryQuery(db, day);
    const expected = await counted();
    expect(expected.overdue).toBeGreaterThan(0);
    expect(expected.pending).toBeGreaterThan(0);
    expect(before).toEqual(expected);
    // Settle two not-yet-due invoices (one in part, one in full) and compare again.
    const open = await db
      .select()
      .from(schema.invoices)
      .where(sql`${schema.invoices.paymentStatus} = 'pending' and ${schema.invoices.expectedPaymentDate} >= ${day}`)
      .orderBy(schema.invoices.id)
      .limit(2);
    // A day of its own: the recount test below totals today's payments.
    const payOn = "2025-02-03";
    const manager = await createUser({ role: "manager" });
    for (const [i, invoice] of open.entries()) {
      const amount = i === 0 ? "1.00" : invoice.amount;
      const paid = await recordPayment(manager, { invoiceId: invoice.id, amount, paymentDate: payOn });
      expect(paid).toMatchObject({ ok: true });
    }
    expect((await invoiceSummaryQuery(db, day))[0]).toEqual(await counted());
  });
});

describe("paging through the whole list", () => {
  it("invoices: older to the end and newer back, a filter kept, no row twice", async () => {
    const seen = new Set<number>();
    let page: PageRequest = FIRST;
    let pages = 0;
    const cursors: (string | null)[] = [];
    for (;;) {
      const result = await listInvoices(
        READER,
        { status: "paid", clientId: clientB },
        { limit: 1000, page },
        new Date(`${today}T12:00:00Z`),
      );
      for (const inv of result.items) {
        expect(seen.has(inv.id)).toBe(false);
        expect(inv).toMatchObject({ clientId: clientB, paymentStatus: "paid" });
        seen.add(inv.id);
      }
      pages++;
      cursors.push(result.newerCursor);
      if (!result.olderCursor) break;
      page = { cursor: { key: null, id: Number(result.olderCursor) }, direction: "older" };
    }
    const [{ n }] = rowsOf<Row>(
      await (
        await getDb()
      ).execute(sql`select count(*)::int as n from invoices where client_id = ${clientB} and payment_status = 'paid'`),
    );
    expect(seen.size).toBe(n);
    expect(pages).toBeGreaterThan(1);
    expect(cursors[0]).toBeNull();
  });

  it("payments: newer from a deep page returns the page before it", async () => {
    const first = await listPayments(READER, {}, { limit: 50 });
    const second = await listPayments(
      READER,
      {},
      { limit: 50, page: { cursor: parse(first.olderCursor!), direction: "older" } },
    );
    const back = await listPayments(
      READER,
      {},
      { limit: 50, page: { cursor: parse(second.newerCursor!), direction: "newer" } },
    );
    expect(back.items.map((p) => p.id)).toEqual(first.items.map((p) => p.id));
    expect(back.newerCursor).toBeNull();
  });
});

const parse = (cursor: string) => {
  const [key, id] = cursor.split("_");
  return { key, id: Number(id) };
};

describe("JSON lists", () => {
  it("a limit gives a page, X-Next-Cursor and Link rel=next; no limit streams every row", async () => {
    const { cookie } = await loginAs("manager");
    const res = await call(apiInvoices.loader, makeRequest("/api/invoices?limit=3&status=paid", { cookie }));
    const page = res.body as { id: number }[];
    expect(page).toHaveLength(3);
    const next = res.headers.get("X-Next-Cursor");
    expect(next).toBe(String(page[2].id));
    expect(res.headers.get("Link")).toBe(`</api/invoices?limit=3&status=paid&cursor=${next}>; rel="next"`);
    const following = await call(
      apiInvoices.loader,
      makeRequest(`/api/invoices?limit=3&status=paid&cursor=${next}`, { cookie }),
    );
    expect((following.body as { id: number }[])[0].id).toBeLessThan(page[2].id);
    const all = await call(apiPayments.loader, makeRequest("/api/payments", { cookie }));
    const list = all.body as unknown[];
    const [{ n }] = rowsOf<Row>(await (await getDb()).execute(sql`select count(*)::int as n from payments`));
    expect(list).toHaveLength(n as number);
    for (const bad of ["limit=0", "limit=501", "limit=abc", "cursor=x&limit=5", "status=late"]) {
      expect((await call(apiInvoices.loader, makeRequest(`/api/invoices?${bad}`, { cookie }))).status, bad).toBe(400);
    }
  });
});

describe("totals kept by triggers", () => {
  it("equal a recount after deliveries, edits, invoices and payments", async () => {
    const db = await getDb();
    const staff = await createUser({ role: "admin" });
    const made = [];
    for (let i = 0; i < 6; i++) {
      const r = await createDeliveryModel(staff, {
        agentId,
        tons: `${5 + i}.25`,
        location: "Totals yard",
        date: `2019-0${1 + (i % 3)}-1${i}`,
        clientId: clientA,
      });
      if (!r.ok) throw new Error(r.message);
      made.push(r.delivery);
    }
    const edited = await updateDelivery(staff, made[0].id, {
      agentId,
      tons: "7.75",
      location: "Moved",
      date: "2019-04-02",
      clientId: clientB,
      sellingRate: "70000",
    });
    expect(edited.ok).toBe(true);
    const priced = await createDelivery({ agentId, clientId: clientA, createdBy: staff.id, date: "2019-01-20" });
    const inv = await createInvoiceForDelivery(staff, { deliveryId: priced.id });
    if (!inv.ok) throw new Error(inv.message);
    expect(
      await recordPayment(staff, {
        invoiceId: inv.invoice.id,
        amount: "1000.00",
        paymentDate: todayIn("Africa/Lagos"),
      }),
    ).toMatchObject({ ok: true });
    expect(await createInvoicesForMonth(staff, "2019-03")).toMatchObject({ ok: true });
    await createDelivery({ agentId, createdBy: staff.id, date: "2019-02-02", status: "draft" });

    const snapshot = async () => {
      const out: Record<string, Row[]> = {};
      for (const table of [
        "delivery_day_totals",
        "delivery_month_totals",
        "invoice_status_totals",
        "invoice_status_rollup",
        "payment_day_totals",
        "invoice_counter",
      ]) {
        // Zero rows are what a recount leaves out; numerics compared as normalised text.
        const rows = rowsOf<Row>(await db.execute(sql.raw(`select * from ${table}`)));
        out[table] = rows
          .filter((r) => !("n_all" in r && r.n_all === 0 && !r.invoice_count) && !("n" in r && r.n === 0))
          .map((r) =>
            JSON.stringify(
              Object.fromEntries(
                Object.entries(r).map(([k, v]) => [
                  k,
                  typeof v === "string" && /^-?\d+\.\d+$/.test(v) ? String(Number(v)) : String(v),
                ]),
              ),
            ),
          )
          .sort() as unknown as Row[];
      }
      return out;
    };
    const kept = await snapshot();
    await db.execute(sql`select pks_rebuild_totals()`);
    expect(kept).toEqual(await snapshot());
    expect(await invoiceSummary(READER)).toMatchObject({ paid: expect.any(Number) });
    const paidOn = todayIn("Africa/Lagos");
    expect((await paymentTotals(READER, { from: paidOn, to: paidOn })).total).toBe("1000.00");
    expect(
      (await listMonths(READER, { cursor: "2019-05", direction: "older" })).months.map((m) => m.month).slice(0, 4),
    ).toEqual(["2019-04", "2019-03", "2019-02", "2019-01"]);
  });
});

describe("db:check and the status roll-up", () => {
  // Every settlement that changes a status and every new invoice writes the same few roll-up
  // rows; the trigger takes them in one order, so writes at once queue and none deadlocks.
  it("40 payments (part and full) and 10 new invoices at once all succeed", async () => {
    const db = await getDb();
    const manager = await createUser({ role: "manager" });
    const open = await db
      .select()
      .from(schema.invoices)
      .where(sql`${schema.invoices.paymentStatus} in ('pending', 'partial') and ${schema.invoices.amount} > 10`)
      .orderBy(schema.invoices.id)
      .limit(40);
    expect(open).toHaveLength(40);
    const fresh = await Promise.all(
      Array.from({ length: 10 }, () =>
        createDelivery({ agentId, clientId: clientB, createdBy: userId, date: "2026-05-02" }),
      ),
    );
    const results = await Promise.all([
      ...open.map((invoice, i) =>
        recordPayment(manager, {
          invoiceId: invoice.id,
          amount: i % 2 ? "1.00" : balanceOf(invoice),
          paymentDate: "2025-03-04",
        }),
      ),
      ...fresh.map((d) => createInvoiceForDelivery(manager, { deliveryId: d.id })),
    ]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  it("finds none wrong after the writes above, and names a roll-up row that was altered", async () => {
    const db = await getDb();
    const rollupBreaches = async () =>
      (await findBreaches(db as unknown as Db)).filter((b) => b.check.startsWith("invoice status roll-up"));
    expect(await rollupBreaches()).toEqual([]);
    await db.execute(sql`update invoice_status_rollup set n = n + 1 where payment_status = 'paid' and not owed`);
    expect(await rollupBreaches()).toEqual([
      expect.objectContaining({ detail: expect.stringMatching(/^paid: kept /) }),
    ]);
    await db.execute(sql`select pks_rebuild_totals()`);
    expect(await rollupBreaches()).toEqual([]);
  });
});

describe("invoice numbers from the counter row", () => {
  it("50 invoices created at once get 50 consecutive numbers", async () => {
    const db = await getDb();
    const [{ last_no: before }] = rowsOf<Row>(await db.execute(sql`select last_no from invoice_counter`));
    const ds = await Promise.all(
      Array.from({ length: 50 }, () =>
        createDelivery({ agentId, clientId: clientA, createdBy: userId, date: "2026-05-01" }),
      ),
    );
    const results = await Promise.all(
      ds.map((d) => createInvoiceForDelivery({ id: userId, role: "manager" }, { deliveryId: d.id })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const numbers = results.map((r) => (r.ok ? Number(r.invoice.invoiceNo) : 0)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => Number(before) + 1 + i));
    const [{ last_no: after }] = rowsOf<Row>(await db.execute(sql`select last_no from invoice_counter`));
    expect(Number(after)).toBe(Number(before) + 50);
    // A refused invoice gives its number back: the next one follows on.
    expect(await createInvoiceForDelivery({ id: userId, role: "manager" }, { deliveryId: ds[0].id })).toMatchObject({
      ok: false,
      status: 409,
    });
    const d = await createDelivery({ agentId, clientId: clientA, createdBy: userId });
    const next = await createInvoiceForDelivery({ id: userId, role: "manager" }, { deliveryId: d.id });
    expect(next.ok && next.invoice.invoiceNo).toBe(String(Number(after) + 1));
    void schema;
  });
});

describe("one session read per page", () => {
  it("parallel loaders of one request share the session and user read; a later request reads afresh", async () => {
    const { getCurrent } = await import("../../app/utils/auth.server");
    const { cookie } = await loginAs("manager");
    // Remix gives each loader its own copy of the Request.
    const copies = Array.from({ length: 3 }, () => makeRequest("/invoices", { cookie }));
    const [a, b, c] = await Promise.all(copies.map((r) => getCurrent(r)));
    expect(a).not.toBeNull();
    expect(b).toBe(a);
    expect(c).toBe(a);
    const later = await getCurrent(makeRequest("/invoices", { cookie }));
    expect(later).not.toBe(a);
    expect(later?.user.id).toBe(a?.user.id);
  });
});
