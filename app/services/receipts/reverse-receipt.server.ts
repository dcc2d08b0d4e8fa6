// Reverse Receipt (docs/decisions/1240, as decision 0920 for payments): takes back a receipt
// recorded in error. Nothing is rewritten: each of its payments gets a reversal row of the opposite
// amount and each withholding one of the opposite amounts, dated today (APP_TIME_ZONE), and every
// invoice it settled is owed again what it settled. The reason is kept on the payments' reversals.
// A receipt is reversed at most once: its invoices are locked first, in id order, and the unique
// indexes on what a reversal names back it. Runs on the keyed write pipeline (decision 0805).
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { schema, type Invoice, type Receipt, type Withholding } from "~/db.server";
import { lockKeptTotals, type Payment } from "~/models/payment.server";
import { receiptView, type ReceiptView } from "~/models/receipt.server";
import type { Actor } from "~/rules/capabilities.server";
import { statusAfterSettlement } from "~/rules/invoices.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { ReceiptReversalSchema } from "~/schemas/receipt";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { add, isNegative, sub, toFixed } from "~/utils/money";
import type { Failure } from "~/utils/result";

export const RECEIPT_ALREADY_REVERSED = "This receipt was already reversed";
export const RECEIPT_REFUNDED_SINCE =
  "Part of what this receipt paid was refunded or moved to another invoice since: reverse that first, then the receipt";

type Input = { receiptId: number; reason: string };
type Locked = { receipt: Receipt; payments: Payment[]; withholdings: Withholding[]; invoices: Invoice[] };
type Reversed = { receipt: ReceiptView };
type ReverseReceiptResult = ({ ok: true; replayed: boolean } & Reversed) | Failure;

/** Each invoice's paid and withheld totals once the receipt's entries are taken back. */
function totalsAfter({ payments, withholdings, invoices }: Locked) {
  const after = new Map(invoices.map((i) => [i.id, { amountPaid: i.amountPaid, amountWithheld: i.amountWithheld }]));
  for (const p of payments) {
    const t = after.get(p.invoiceId)!;
    t.amountPaid = toFixed(sub(t.amountPaid, p.amount));
  }
  for (const w of withholdings) {
    const t = after.get(w.invoiceId)!;
    t.amountWithheld = toFixed(sub(t.amountWithheld, add(w.wht, w.vat)));
  }
  return after;
}

const reverseReceiptCommand: KeyedCommand<Input, Locked, Reversed> = {
  capability: "payment.reverse",
  object: (input) => `receipt/${String(input.receiptId)}/reversal`,
  scope: "receipt.reverse",
  parse(input) {
    const parsed = parseFields(ReceiptReversalSchema, input);
    if (!parsed.ok) return parsed;
    return { ok: true, data: { reason: parsed.data.reason, receiptId: input.receiptId as number } };
  },
  hash: ({ receiptId, reason }) => ({ receiptId, reason }),
  async replay(tx, resourceId) {
    const receipt = await receiptView(tx, Number(resourceId));
    return receipt ? { receipt } : refuseWith({ ok: false, status: 409, message: RECEIPT_ALREADY_REVERSED });
  },
  async lock(tx, { receiptId }) {
    const [receipt] = await tx.select().from(schema.receipts).where(eq(schema.receipts.id, receiptId));
    if (!receipt) refuseWith({ ok: false, status: 404, message: "Receipt not found" });
    // Entries never change (append-only): read once, then their invoices locked in id order.
    const p = schema.payments;
    const w = schema.withholdings;
    const payments = await tx
      .select()
      .from(p)
      .where(and(eq(p.receiptId, receiptId), isNull(p.reversesPaymentId)))
      .orderBy(p.id);
    const withholdings = await tx
      .select()
      .from(w)
      .where(and(eq(w.receiptId, receiptId), isNull(w.reversesWithholdingId)))
      .orderBy(w.id);
    const ids = [...new Set([...payments, ...withholdings].map((e) => e.invoiceId))].sort((a, b) => a - b);
    const invoices = ids.length
      ? await tx
          .select()
          .from(schema.invoices)
          .where(inArray(schema.invoices.id, ids))
          .orderBy(schema.invoices.id)
          .for("update")
      : [];
    if (invoices.length > 1) await lockKeptTotals(tx);
    return { receipt, payments, withholdings, invoices };
  },
  landsOn: (_input, _locked, { today }) => today,
  async check(tx, _input, locked) {
    const p = schema.payments;
    const ids = locked.payments.map((x) => x.id);
    const [earlier] = ids.length ? await tx.select({ id: p.id }).from(p).where(inArray(p.reversesPaymentId, ids)) : [];
    if (earlier) refuseWith({ ok: false, status: 409, message: RECEIPT_ALREADY_REVERSED });
    for (const t of totalsAfter(locked).values())
      if (isNegative(t.amountPaid) || isNegative(t.amountWithheld))
        refuseWith({ ok: false, status: 409, message: RECEIPT_REFUNDED_SINCE });
  },
  async write(tx, { reason }, locked, { actor, today }) {
    for (const entry of locked.payments)
      await tx.insert(schema.payments).values({
        invoiceId: entry.invoiceId,
        amount: toFixed(sub("0", entry.amount)),
        paymentDate: today,
        reference: entry.reference,
        note: reason,
        reversesPaymentId: entry.id,
        receiptId: locked.receipt.id,
        createdBy: actor.id,
      });
    for (const entry of locked.withholdings)
      await tx.insert(schema.withholdings).values({
        receiptId: locked.receipt.id,
        invoiceId: entry.invoiceId,
        clientId: entry.clientId,
        withholdingDate: today,
        wht: toFixed(sub("0", entry.wht)),
        vat: toFixed(sub("0", entry.vat)),
        reversesWithholdingId: entry.id,
        createdBy: actor.id,
      });
    const after = totalsAfter(locked);
    const invoicesAfter = locked.invoices.map((invoice) => {
      const t = after.get(invoice.id)!;
      return { ...invoice, ...t, paymentStatus: statusAfterSettlement({ ...invoice, ...t }) };
    });
    for (const { id, amountPaid, amountWithheld, paymentStatus } of invoicesAfter)
      await tx
        .update(schema.invoices)
        .set({ amountPaid, amountWithheld, paymentStatus, updatedAt: sql`now()` })
        .where(eq(schema.invoices.id, id));
    const view = (await receiptView(tx, locked.receipt.id))!;
    const state = (invoices: Invoice[]) =>
      invoices.map(({ invoiceNo, amountPaid, amountWithheld, paymentStatus }) => ({
        invoiceNo,
        amountPaid,
        amountWithheld,
        paymentStatus,
      }));
    return {
      made: { receipt: view },
      resourceId: locked.receipt.id,
      audit: [
        {
          action: "receipt.reverse",
          entityType: "receipt",
          entityId: locked.receipt.id,
          before: { ...locked.receipt, clientName: view.clientName, invoices: state(locked.invoices) },
          after: {
            reason,
            reversals: locked.payments.length + locked.withholdings.length,
            invoices: state(invoicesAfter),
          },
        },
      ],
    };
  },
};

/** Takes a receipt back in one transaction: idempotent, refused when today's month is closed, audited. */
export function reverseReceipt(
  actor: Actor,
  receiptId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<ReverseReceiptResult> {
  return keyedWrite(reverseReceiptCommand, actor, { ...input, receiptId }, { idempotencyKey, now });
}
