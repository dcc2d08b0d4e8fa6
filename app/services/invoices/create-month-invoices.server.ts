// Create Month Invoices: one invoice per client for a month's confirmed, uninvoiced deliveries
// (the reconciliation button "Generate Invoice"), all in one transaction and one clock reading,
// so its invoices share one issue date, even at midnight. Runs on the keyed write pipeline
// (decision 0805).
import { and, asc, eq, gte, inArray, lte } from "drizzle-orm";
import { schema, type Invoice } from "~/db.server";
import {
  earliestDate,
  eligibleColumns,
  highestInvoiceNumber,
  insertInvoice,
  isEligible,
  lockInvoiceCounter,
  lockTaxRows,
  type EligibleRow,
} from "~/models/invoice.server";
import { lockKeptTotals } from "~/models/payment.server";
import type { Actor } from "~/rules/capabilities.server";
import { MonthInvoicesSchema } from "~/schemas/invoice";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { formatMonth } from "~/utils/dates";
import { fail, failOn, type Failure } from "~/utils/result";
import { firstDayOfMonth, lastDayOfMonth } from "~/utils/year-month";

type Input = { month: string; from: string; to: string; expected: string | null };
/** The month's eligible deliveries, one group per client in client-name order. */
type Locked = { groups: [EligibleRow, ...EligibleRow[]][]; earliest: string };
type Made = { invoices: Invoice[] };

export type CreateMonthInvoicesResult = ({ ok: true; replayed: boolean } & Made) | Failure;

const createMonthInvoicesCommand: KeyedCommand<Input, Locked, Made> = {
  capability: "invoice.manage",
  object: (input) => `invoices/month/${String(input.month).slice(0, 7)}`,
  scope: "invoice.month",
  parse(input, { today }) {
    // Said at the top of the page, under no field: a field error under expectedNo means the
    // numbers moved on (numbersMovedOn).
    const parsed = MonthInvoicesSchema.safeParse(input);
    if (!parsed.success) return fail(400, parsed.error.issues[0].message);
    const { month, expectedNo: expected } = parsed.data;
    const from = firstDayOfMonth(month);
    // A month that has not begun has nothing true to invoice (decision 0841).
    if (from > today) return fail(400, `${formatMonth(month)} has not begun: it cannot be invoiced yet`);
    return { ok: true, data: { month, from, to: lastDayOfMonth(month), expected } };
  },
  hash: ({ month }) => ({ month }),
  async replay(tx, resourceId) {
    const ids = resourceId.split(",").map(Number);
    const invoices = await tx
      .select()
      .from(schema.invoices)
      .where(inArray(schema.invoices.id, ids))
      .orderBy(asc(schema.invoices.id));
    return { invoices };
  },
  async lock(tx, { from, to }, { today }) {
    const rows = await tx
      .select(eligibleColumns)
      .from(schema.deliveries)
      .innerJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId))
      .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
      .where(and(isEligible, gte(schema.deliveries.date, from), lte(schema.deliveries.date, to)))
      .orderBy(asc(schema.deliveries.date), asc(schema.deliveries.id))
      .for("update", { of: schema.deliveries });
    if (!rows.length) refuseWith(fail(409, "This month has no confirmed deliveries with a client left to invoice"));
    const byClient = new Map<number, [EligibleRow, ...EligibleRow[]]>();
    for (const r of rows) {
      const group = byClient.get(r.clientId);
      if (group) group.push(r);
      else byClient.set(r.clientId, [r]);
    }
    const groups = [...byClient.values()].sort((a, b) => a[0].clientName.localeCompare(b[0].clientName));
    // The counter first, as a single invoice takes it before anything its insert touches: taken
    // after the tax rows, a single invoice at one of the batch's rates would hold the counter and
    // wait on the tax row while the batch held the row and waited on the counter.
    await lockInvoiceCounter(tx);
    await lockTaxRows(
      tx,
      today,
      groups.map((g) => g[0].taxRate),
    );
    // One invoice per client: each takes its client's balance rows, then the status roll-up,
    // which a payment on another client's invoice takes in the same order. Several clients in
    // one transaction would cross those; the batch takes the kept totals whole first instead
    // (decision 0995, "Lock order").
    await lockKeptTotals(tx);
    return { groups, earliest: earliestDate(rows) };
  },
  // The invoices are dated today; they also change their deliveries (to invoiced), which count
  // in their month's reconciliation: none of those dates may be in a closed month (decision 0901).
  landsOn: (_input, { earliest }, { today }) => [today, earliest],
  async check(tx, { expected }) {
    // The number the confirmation showed must still be the next: the invoices never take
    // numbers other than those the person confirmed (decision 0501).
    if (expected === null) return;
    const next = String((await highestInvoiceNumber(tx)) + 1);
    if (next !== expected)
      refuseWith(
        failOn(
          409,
          "expectedNo",
          `Invoice #${expected} has been issued since this was shown: the next number is now #${next}. Nothing was created.`,
        ),
      );
  },
  async write(tx, _input, { groups }, { actor, now, today }) {
    const issued = [];
    for (const group of groups)
      issued.push(await insertInvoice(tx, group, actor, { issueDate: today, createdAt: now }));
    const [first, ...rest] = issued;
    return {
      made: { invoices: issued.map((i) => i.invoice) },
      resourceId: issued.map((i) => i.invoice.id).join(","),
      audit: [first.audit, ...rest.map((i) => i.audit)],
    };
  },
};

/**
 * One invoice per client for `yearMonth`'s confirmed, uninvoiced deliveries, in one transaction.
 * `expectedFirstNo`, the number the confirmation showed, must still be the next one.
 */
export function createInvoicesForMonth(
  user: Actor,
  yearMonth: string,
  {
    idempotencyKey,
    now,
    expectedFirstNo,
  }: Pick<KeyOptions, "idempotencyKey" | "now"> & { expectedFirstNo?: unknown } = {},
): Promise<CreateMonthInvoicesResult> {
  return keyedWrite(
    createMonthInvoicesCommand,
    user,
    { month: yearMonth, expectedNo: expectedFirstNo },
    {
      idempotencyKey,
      now,
    },
  );
}

/** A month's refusal because another invoice took the number its confirmation showed: ask again. */
export const numbersMovedOn = (failure: Failure) => Boolean(failure.fieldErrors?.expectedNo);
