// Each business rule is written twice on purpose, once in JavaScript and once in SQL
// (app/rules/*, decision 0800). This runs both on the same rows and requires equal answers,
// exactly (money compared to 6 decimals, far below any rounding), on PGlite and PostgreSQL;
// and the totals the triggers of migration 0004 keep must agree with the JavaScript rules too.
import { asc, getTableColumns, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import {
  costOf,
  costSql,
  countedSql,
  deliveryProfit,
  deliveryRevenue,
  eligibleSql,
  invoiceAmountSql,
  invoiceProfitSql,
  invoiceTotalsOf,
  isCounted,
  isEligibleForInvoice,
  kobo,
  netPaymentOf,
  netPaymentSql,
  netPaymentToAgent,
  profitOf,
  profitSql,
  revenueOf,
  revenueSql,
} from "../../app/rules/deliveries.server";
import {
  balanceOf,
  balanceSql,
  effectiveStatus,
  effectiveStatusSql,
  isOverdue,
  isOwed,
  hasClientCredit,
  clientCreditSql,
  isVoid,
  overdueSql,
  owedSql,
  statusAfterSettlement,
  statusAfterSettlementSql,
  taxContained,
  taxContainedSql,
  voidSql,
} from "../../app/rules/invoices.server";
import { acceptedTonsOf, invoicedTonsOf, paidTonsOf } from "../../app/rules/weights";
import { add, sub, toFixed, type Decimal } from "../../app/utils/money";
import { createAgent, createClient, createDelivery, createUser } from "../factories";
import { rewriteInvoice } from "../money-entries";

const exact = (value: Decimal | string | null) => (value === null ? null : toFixed(value, 6));

// Figures chosen for the edges: half a kobo either way, negative profit, every cost missing,
// no selling rate, large tonnage; statuses draft, confirmed and invoiced, with and without a client.
// Some carry a client's weighbridge weight, a quality deduction and an agent's pay basis
// (docs/decisions/1220), so what is invoiced and what is paid differ from the loaded tons.
const FIGURES = [
  {
    tons: "30.55",
    receivedTons: "30.123",
    qualityDeductionTons: "0.602",
    payBasis: "received" as const,
    buyingRate: "52000.75",
    sellingRate: "65000.50",
    logisticsCost: "150000.10",
    otherCosts: "12500.05",
    offloadingCost: "15000.00",
    mobilizationPayment: "200000.00",
  },
  {
    tons: "0.01",
    buyingRate: "1.00",
    sellingRate: "0.50",
    logisticsCost: null,
    otherCosts: null,
    offloadingCost: null,
    mobilizationPayment: null,
  },
  {
    tons: "0.01",
    receivedTons: "0.009",
    qualityDeductionTons: "0.001",
    payBasis: "accepted" as const,
    buyingRate: "0.50",
    sellingRate: "1.50",
    logisticsCost: null,
    otherCosts: "0.01",
    offloadingCost: "0.00",
    mobilizationPayment: "0.01",
  },
  {
    tons: "12.00",
    buyingRate: null,
    sellingRate: null,
    logisticsCost: "99.99",
    otherCosts: null,
    offloadingCost: "10.00",
    mobilizationPayment: null,
  },
  {
    tons: "4999.99",
    buyingRate: "1999999.99",
    sellingRate: "1999999.99",
    logisticsCost: "9999999.99",
    otherCosts: "0.01",
    offloadingCost: "1.00",
    mobilizationPayment: "2.00",
  },
  {
    tons: "7.35",
    receivedTons: "7.401",
    qualityDeductionTons: "0.000",
    payBasis: "accepted" as const,
    buyingRate: "70000.00",
    sellingRate: "65000.00",
    logisticsCost: "1000.00",
    otherCosts: "500.00",
    offloadingCost: "15000.00",
    mobilizationPayment: null,
  },
];
const STATUSES = ["draft", "confirmed", "invoiced", "confirmed"] as const;
/** Corrected invoices (decision 0920): void, credited in part, paid and credited beyond (a credit balance). */
const CORRECTED = ["void", "credited", "credit balance"] as const;

let invoicedIds: number[] = [];

beforeAll(async () => {
  const user = await createUser({ role: "manager" });
  const agentId = (await createAgent()).id;
  const clientId = (await createClient()).id;
  let day = 1;
  for (const figures of FIGURES) {
    for (const [i, status] of STATUSES.entries()) {
      const date = `2026-03-${String(day++).padStart(2, "0")}`;
      const withClient = i !== 3 || day % 2 === 0;
      const delivery = await createDelivery({
        ...figures,
        agentId,
        createdBy: user.id,
        date,
        status: status === "invoiced" ? "confirmed" : status,
        clientId: withClient ? clientId : null,
      });
      if (status === "invoiced" && withClient) {
        const made = await createInvoiceForDelivery(user, { deliveryId: delivery.id });
        if (!made.ok) throw new Error(made.message);
        invoicedIds.push(made.invoice.id);
      }
    }
  }
  // Invoices in every payment state: unpaid, part paid, paid; due in the past, today, the future.
  const states = [
    { paid: "0", due: "2026-03-01", status: "pending" },
    { paid: "half", due: "2026-03-01", status: "partial" },
    { paid: "all", due: "2026-03-01", status: "paid" },
    { paid: "0", due: "2026-04-15", status: "pending" },
    { paid: "half", due: "2026-04-16", status: "partial" },
    { paid: "0", due: "2026-05-01", status: "pending" },
  ] as const;
  for (const [i, id] of invoicedIds.entries()) {
    const s = states[i % states.length];
    const paid =
      s.paid === "0"
        ? sql`0`
        : s.paid === "all"
          ? schema.invoices.amount
          : sql`round(${schema.invoices.amount} / 2, 2)`;
    await rewriteInvoice(id, { amountPaid: paid as never, expectedPaymentDate: s.due, paymentStatus: s.status });
  }
  // Corrections through the models: a void invoice (its delivery back to confirmed), one
  // credited in part, one paid in full and then credited (the client's credit balance).
  for (const [i, kind] of CORRECTED.entries()) {
    const delivery = await createDelivery({
      ...FIGURES[i],
      agentId,
      createdBy: user.id,
      date: `2026-03-${25 + i}`,
      status: "confirmed",
      clientId,
    });
    const made = await createInvoiceForDelivery(user, { deliveryId: delivery.id });
    if (!made.ok) throw new Error(made.message);
    const { id, amount } = made.invoice;
    const ok = (r: { ok: boolean; message?: string }) => {
      if (!r.ok) throw new Error(r.message);
    };
    if (kind === "void") ok(await voidInvoice(user, id, { reason: "Wrong client" }));
    if (kind === "credited") ok(await createCreditNote(user, id, { amount: "0.01", reason: "Rounding" }));
    if (kind === "credit balance") {
      ok(await recordPayment(user, { invoiceId: id, amount }));
      ok(await createCreditNote(user, id, { amount: "0.01", reason: "After payment" }));
    }
    invoicedIds.push(id);
  }
  invoicedIds = [...invoicedIds];
});

const text = (fragment: ReturnType<typeof sql>) => sql<string | null>`(${fragment})::text`;

describe("delivery rules: JavaScript and SQL agree row by row", () => {
  it("revenue, cost, profit, net payment, counted and eligible", async () => {
    const db = await getDb();
    const rows = await db
      .select({
        ...getTableColumns(schema.deliveries),
        revenueSql: text(revenueSql()),
        costSql: text(costSql()),
        profitSql: text(profitSql()),
        netSql: text(netPaymentSql()),
        revenueKobo: kobo(revenueSql()),
        profitKobo: kobo(profitSql()),
        netKobo: kobo(netPaymentSql()),
        countedSql: sql<boolean>`${countedSql()}`,
        eligibleSql: sql<boolean>`${eligibleSql()}`,
      })
      .from(schema.deliveries)
      .orderBy(asc(schema.deliveries.id));
    expect(rows.length).toBe(FIGURES.length * STATUSES.length + CORRECTED.length);
    const seen = {
      eligible: 0,
      notEligible: 0,
      counted: 0,
      notCounted: 0,
      noRevenue: 0,
      negativeProfit: 0,
      paidOtherThanInvoiced: 0,
    };
    for (const row of rows) {
      const where = `delivery ${row.id} (${row.status}, tons ${row.tons})`;
      expect(exact(revenueOf(row)), `${where} revenue`).toBe(exact(row.revenueSql));
      expect(exact(costOf(row)), `${where} cost`).toBe(exact(row.costSql));
      expect(exact(profitOf(row)), `${where} profit`).toBe(exact(row.profitSql));
      expect(exact(netPaymentOf(row)), `${where} net payment`).toBe(exact(row.netSql));
      expect(deliveryRevenue(row), `${where} revenue shown`).toBe(row.revenueKobo);
      expect(deliveryProfit(row), `${where} profit shown`).toBe(row.profitKobo);
      expect(netPaymentToAgent(row), `${where} net payment shown`).toBe(row.netKobo);
      expect(isCounted(row), `${where} counted`).toBe(row.countedSql);
      expect(isEligibleForInvoice(row), `${where} eligible`).toBe(row.eligibleSql);
      // The weights: the generated columns and their JavaScript twins (rules/weights.ts).
      expect(acceptedTonsOf(row), `${where} accepted tons`).toBe(row.acceptedTons);
      expect(invoicedTonsOf(row), `${where} invoiced tons`).toBe(row.invoicedTons);
      expect(paidTonsOf(row), `${where} paid tons`).toBe(row.paidTons);
      if (row.invoicedTons !== row.paidTons) seen.paidOtherThanInvoiced++;
      seen[row.eligibleSql ? "eligible" : "notEligible"]++;
      seen[row.countedSql ? "counted" : "notCounted"]++;
      if (row.revenueSql === null) seen.noRevenue++;
      if (row.profitSql?.startsWith("-")) seen.negativeProfit++;
    }
    // The rows really cover both sides of every rule.
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(0);
  });

  it("an invoice's amount and profit over a group of deliveries", async () => {
    const db = await getDb();
    const all = await db.select().from(schema.deliveries);
    const [totals] = await db
      .select({ amount: text(invoiceAmountSql()), profit: text(invoiceProfitSql()) })
      .from(schema.deliveries);
    const js = invoiceTotalsOf(all);
    expect(exact(js.amount)).toBe(exact(totals.amount));
    expect(exact(js.profit)).toBe(exact(totals.profit));
    // Stored invoice figures are that rule rounded once, over the deliveries it covered (its
    // lines: a void invoice's deliveries no longer point back to it).
    const invoices = await db.select().from(schema.invoices);
    const lines = await db.select().from(schema.invoiceLines);
    for (const invoice of invoices) {
      const covered = lines.filter((l) => l.invoiceId === invoice.id);
      expect(covered.length).toBeGreaterThan(0);
      const ds = all.filter((d) => covered.some((l) => l.deliveryId === d.id));
      if (!isVoid(invoice)) expect(ds.map((d) => d.invoiceId)).toEqual(covered.map(() => invoice.id));
      const figures = invoiceTotalsOf(ds);
      expect(invoice.amount).toBe(toFixed(figures.amount));
      expect(invoice.profit).toBe(toFixed(figures.profit));
      expect(invoice.amount).toBe(toFixed(add(...covered.map((l) => l.amount))));
    }
  });

  it("the trigger-kept day and month totals agree with the rules", async () => {
    const db = await getDb();
    const all = await db.select().from(schema.deliveries);
    const days = await db.select().from(schema.deliveryDayTotals);
    const months = await db.select().from(schema.deliveryMonthTotals);
    const expectTotals = (t: (typeof days)[number], ds: typeof all) => {
      const counted = ds.filter(isCounted);
      expect(t.nAll).toBe(ds.length);
      expect(t.nConfirmed + t.nInvoiced).toBe(counted.length);
      expect(t.nEligible).toBe(ds.filter(isEligibleForInvoice).length);
      expect(exact(t.tons)).toBe(exact(add(...counted.map((d) => d.invoicedTons))));
      expect(exact(t.revenue)).toBe(exact(add(...counted.map((d) => revenueOf(d) ?? "0"))));
      expect(exact(t.profit)).toBe(exact(add(...counted.map((d) => profitOf(d) ?? "0"))));
    };
    expect(days.length).toBe(all.length);
    for (const t of days)
      expectTotals(
        t,
        all.filter((d) => d.date === t.day),
      );
    expect(months.length).toBe(1);
    expectTotals(months[0] as never, all);
  });
});

describe("invoice rules: JavaScript and SQL agree row by row", () => {
  for (const today of ["2026-03-01", "2026-04-16", "2026-06-30"]) {
    it(`owed, overdue and the status shown, today ${today}`, async () => {
      const db = await getDb();
      const rows = await db
        .select({
          ...getTableColumns(schema.invoices),
          owedSql: sql<boolean>`${owedSql()}`,
          creditSql: sql<boolean>`${clientCreditSql()}`,
          overdueSql: sql<boolean>`${overdueSql(today)}`,
          statusSql: effectiveStatusSql(today),
          voidSql: sql<boolean>`${voidSql()}`,
          balanceSql: balanceSql(),
          settledSql: statusAfterSettlementSql(),
          taxSql: taxContainedSql(),
        })
        .from(schema.invoices);
      expect(rows.length).toBe(invoicedIds.length);
      for (const row of rows) {
        expect(isVoid(row), `invoice ${row.invoiceNo} void`).toBe(row.voidSql);
        expect(balanceOf(row), `invoice ${row.invoiceNo} balance`).toBe(row.balanceSql);
        expect(statusAfterSettlement(row), `invoice ${row.invoiceNo} settled status`).toBe(row.settledSql);
        expect(taxContained(row.amount, row.taxRate), `invoice ${row.invoiceNo} tax`).toBe(row.taxSql);
        expect(isOwed(row), `invoice ${row.invoiceNo} owed`).toBe(row.owedSql);
        expect(hasClientCredit(row), `invoice ${row.invoiceNo} client credit`).toBe(row.creditSql);
        expect(isOverdue(row, today), `invoice ${row.invoiceNo} overdue`).toBe(row.overdueSql);
        expect(effectiveStatus(row, today), `invoice ${row.invoiceNo} status`).toBe(row.statusSql);
      }
      // The trigger-kept status totals give the same overdue count.
      const t = schema.invoiceStatusTotals;
      const [late] = await db
        .select({
          n: sql<number>`coalesce(sum(${t.n}) filter (where ${overdueSql(today, sql`${t.owed}`, t.dueDate)}), 0)::int`,
        })
        .from(t);
      expect(late.n).toBe(rows.filter((r) => isOverdue(r, today)).length);
    });
  }

  it("the status totals the triggers keep leave void invoices out and count credits", async () => {
    const db = await getDb();
    const rows = await db.select().from(schema.invoices);
    const counted = rows.filter((r) => !isVoid(r));
    expect(counted.length).toBeLessThan(rows.length);
    const t = schema.invoiceStatusTotals;
    const [totals] = await db
      .select({
        n: sql<number>`coalesce(sum(${t.n}), 0)::int`,
        amount: sql<string>`coalesce(sum(${t.amount}), 0)::text`,
        paid: sql<string>`coalesce(sum(${t.amountPaid}), 0)::text`,
        credited: sql<string>`coalesce(sum(${t.amountCredited}), 0)::text`,
        owedN: sql<number>`coalesce(sum(${t.n}) filter (where ${t.owed}), 0)::int`,
        outstanding: sql<string>`coalesce(sum(${t.amount} - ${t.amountPaid} - ${t.amountCredited}) filter (where ${t.owed}), 0)::text`,
      })
      .from(t);
    expect(totals.n).toBe(counted.length);
    expect(exact(totals.amount)).toBe(exact(add(...counted.map((r) => r.amount))));
    expect(exact(totals.paid)).toBe(exact(add(...counted.map((r) => r.amountPaid))));
    expect(exact(totals.credited)).toBe(exact(add(...counted.map((r) => r.amountCredited))));
    const owed = rows.filter(isOwed);
    expect(totals.owedN).toBe(owed.length);
    expect(exact(totals.outstanding)).toBe(exact(add(...owed.map((r) => balanceOf(r)))));
    // The fixture has a credit balance (negative) and a void invoice (0).
    expect(rows.some((r) => balanceOf(r).startsWith("-"))).toBe(true);
    expect(rows.filter(isVoid).map((r) => balanceOf(r))).toEqual(["0.00"]);
    expect(rows.some((r) => sub(r.amountCredited, "0").units > 0n && !isVoid(r))).toBe(true);
  });

  it("the fixture has overdue and not-overdue invoices on some day", async () => {
    const db = await getDb();
    const rows = await db.select().from(schema.invoices);
    expect(rows.some((r) => isOverdue(r, "2026-04-16"))).toBe(true);
    expect(rows.some((r) => !isOverdue(r, "2026-04-16"))).toBe(true);
  });
});
