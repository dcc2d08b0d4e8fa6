import { and, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { parseFields } from "~/schemas/parse-fields.server";
import { getDb, rowsOf, schema, type Executor, type Invoice } from "~/db.server";
import { Refusal, type Failure } from "~/utils/result";
import { formatDate, isValidDate, todayIn } from "~/utils/dates";
import { businessDateRefusal } from "~/utils/business-dates";
import { ApplyCreditSchema, PaymentReversalSchema, RefundSchema } from "~/schemas/corrections";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import { parseId, parseInvoiceNo, type Page, type PageRequest } from "~/utils/params";
import { env } from "~/utils/env.server";
import {
  claimKey,
  completeKey,
  deleteOldKeys,
  idempotencyFailure,
  INVALID_KEY_MESSAGE,
  requestHash,
} from "~/utils/idempotency.server";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import { balanceOf, clientCreditOf, isVoid, owedSql, statusAfterSettlement } from "~/rules/invoices.server";
import { add, compare, formatNaira, isNegative, sub, toFixed } from "~/utils/money";
import { recordAudit } from "./audit.server";
import { outerColumn } from "./outer-column.server";
import { checkPeriodOpen } from "./period.server";
import { hasControlCharacters } from "~/utils/text";

export const PAYMENT_NOT_FOUND = "Payment not found";
/** Reversing a credit move would take `invoiceNo`'s paid total out of 0..amount. */
export const creditMoveSpent = (invoiceNo: string) =>
  `Invoice #${invoiceNo} has been refunded, paid or moved on since this credit move: reverse that first, then the move`;
export const REVERSE_REFUND_FIRST =
  "Part of what this payment settled was refunded or moved to another invoice since: reverse that first, then the payment";
export const REFUND_CREDIT_GONE =
  "The invoice has been paid again since this refund, so the credit it paid back is gone: reverse that payment first";
export const PAYMENT_REVERSAL_NOT_REVERSIBLE = "A reversal cannot itself be reversed";

type Payment = typeof schema.payments.$inferSelect;

/** An invoice's state after a reversal, with the reversal written on it. */
type ReversedOn = {
  reversal: Payment;
  invoiceNo: string;
  paymentStatus: "pending" | "partial" | "paid" | "overdue" | "void";
  amountPaid: string;
};

export type ReversePaymentResult =
  | (ReversedOn & {
      ok: true;
      payment: Payment;
      /** On a credit move: the other entry's reversal and its invoice after it (both are taken back). */
      partner: ReversedOn | null;
      replayed: boolean;
    })
  | Failure;

/**
 * Takes back a payment recorded in error (the wrong amount, the wrong invoice). The payment
 * stays as it was; a reversal row of the opposite amount, dated today (APP_TIME_ZONE) and naming
 * the payment, is added, and the invoice's paid total and status follow in the same
 * transaction, so the invoice is owed the amount again. A payment is reversed at most once: the
 * invoice row is locked first, as a payment locks it, and a unique index backs it. The reason is
 * required and kept as the reversal's note. Idempotent under `idempotencyKey`, refused when
 * today's month is closed, audited in the same transaction (docs/decisions/0920, addendum).
 */
export async function reversePayment(
  actor: Actor,
  paymentId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: { idempotencyKey?: string | null } = {},
): Promise<ReversePaymentResult> {
  const refused = refuse(actor, "payment.reverse", `payment/${paymentId}/reversal`);
  if (refused) return refused;
  if (idempotencyKey === null) return { ok: false, status: 400, message: INVALID_KEY_MESSAGE };
  const parsed = parseFields(PaymentReversalSchema, input);
  if (!parsed.ok) return parsed;
  const { reason } = parsed.data;
  const today = todayIn(env().APP_TIME_ZONE, now);
  const p = schema.payments;
  const db = await getDb();
  try {
    return await db.transaction(async (tx): Promise<ReversePaymentResult> => {
      if (idempotencyKey) {
        const existing = await claimKey(tx, {
          userId: actor.id,
          key: idempotencyKey,
          scope: "payment.reverse",
          hash: requestHash({ paymentId, reason }),
        });
        if (existing) {
          const [reversal] = await tx
            .select()
            .from(p)
            .where(eq(p.id, Number(existing)));
          const [payment] = reversal ? await tx.select().from(p).where(eq(p.id, reversal.reversesPaymentId!)) : [];
          const [invoice] = payment
            ? await tx.select().from(schema.invoices).where(eq(schema.invoices.id, payment.invoiceId))
            : [];
          if (!reversal || !payment || !invoice) {
            throw new Refusal({ ok: false, status: 409, message: "This reversal was already recorded" });
          }
          const { invoiceNo, paymentStatus, amountPaid } = invoice;
          const partner = await reversedPartner(tx, payment);
          return { ok: true, reversal, payment, invoiceNo, paymentStatus, amountPaid, partner, replayed: true };
        }
      }
      // Read once: a payment never changes (append-only, migration 0013).
      const [payment] = await tx.select().from(p).where(eq(p.id, paymentId));
      if (!payment) throw new Refusal({ ok: false, status: 404, message: PAYMENT_NOT_FOUND });
      // A credit moved between invoices is two entries, taken back together (migration 0017).
      const partner = await creditMovePartner(tx, payment);
      const entries = partner ? [payment, partner] : [payment];
      // Locked next, in id order: two reversals of one entry queue here, and the second finds the first.
      const invoiceIds = [...new Set(entries.map((e) => e.invoiceId))].sort((a, b) => a - b);
      const locked = await tx
        .select()
        .from(schema.invoices)
        .where(inArray(schema.invoices.id, invoiceIds))
        .orderBy(schema.invoices.id)
        .for("update");
      const invoiceOf = (entry: Payment) => locked.find((i) => i.id === entry.invoiceId)!;
      if (partner) await lockKeptTotals(tx);
      if (payment.reversesPaymentId !== null) {
        throw new Refusal({ ok: false, status: 409, message: PAYMENT_REVERSAL_NOT_REVERSIBLE });
      }
      const [earlier] = await tx
        .select()
        .from(p)
        .where(
          inArray(
            p.reversesPaymentId,
            entries.map((e) => e.id),
          ),
        );
      if (earlier) {
        throw new Refusal({
          ok: false,
          status: 409,
          message: `This payment was already reversed on ${formatDate(earlier.paymentDate)}`,
        });
      }
      const closed = await checkPeriodOpen(tx, today);
      if (closed) throw new Refusal(closed);
      // What was paid since must still add up: a payment partly refunded keeps its refund, and a
      // refund whose credit was paid off again cannot come back (amount_paid stays within 0..amount).
      const after = new Map(locked.map((i) => [i.id, i.amountPaid]));
      for (const entry of entries) after.set(entry.invoiceId, toFixed(sub(after.get(entry.invoiceId)!, entry.amount)));
      for (const invoice of locked) {
        const paid = after.get(invoice.id)!;
        if (isNegative(paid) || compare(paid, invoice.amount) > 0) {
          const message = partner
            ? creditMoveSpent(invoice.invoiceNo)
            : isNegative(paid)
              ? REVERSE_REFUND_FIRST
              : REFUND_CREDIT_GONE;
          throw new Refusal({ ok: false, status: 409, message });
        }
      }
      const reversals: Payment[] = [];
      for (const entry of entries) {
        const [reversal] = await tx
          .insert(p)
          .values({
            invoiceId: entry.invoiceId,
            amount: toFixed(sub("0", entry.amount)),
            paymentDate: today,
            reference: entry.reference,
            note: reason,
            reversesPaymentId: entry.id,
            createdBy: actor.id,
          })
          .returning();
        reversals.push(reversal);
      }
      const settled = locked.map((invoice) => {
        const amountPaid = after.get(invoice.id)!;
        return { invoice, amountPaid, paymentStatus: statusAfterSettlement({ ...invoice, amountPaid }) };
      });
      for (const { invoice, amountPaid, paymentStatus } of settled) {
        await tx
          .update(schema.invoices)
          .set({ amountPaid, paymentStatus, updatedAt: now })
          .where(eq(schema.invoices.id, invoice.id));
      }
      const invoice = invoiceOf(payment);
      const { amountPaid, paymentStatus } = settled.find((x) => x.invoice.id === invoice.id)!;
      const [reversal] = reversals;
      await recordAudit(tx, {
        actor,
        action: "payment.reverse",
        entityType: "payment",
        entityId: payment.id,
        before: {
          ...payment,
          invoiceNo: invoice.invoiceNo,
          amountPaid: invoice.amountPaid,
          paymentStatus: invoice.paymentStatus,
          ...(partner
            ? {
                partner: {
                  ...partner,
                  invoiceNo: invoiceOf(partner).invoiceNo,
                  amountPaid: invoiceOf(partner).amountPaid,
                  paymentStatus: invoiceOf(partner).paymentStatus,
                },
              }
            : {}),
        },
        after: {
          ...reversal,
          invoiceNo: invoice.invoiceNo,
          amountPaid,
          paymentStatus,
          ...(partner
            ? {
                partner: {
                  ...reversals[1],
                  invoiceNo: invoiceOf(partner).invoiceNo,
                  amountPaid: after.get(partner.invoiceId),
                  paymentStatus: settled.find((x) => x.invoice.id === partner.invoiceId)!.paymentStatus,
                },
              }
            : {}),
        },
      });
      if (idempotencyKey) {
        await completeKey(tx, { userId: actor.id, key: idempotencyKey, resourceId: String(reversal.id) });
        await deleteOldKeys(tx, now);
      }
      const partnerState = partner && {
        reversal: reversals[1],
        invoiceNo: invoiceOf(partner).invoiceNo,
        amountPaid: after.get(partner.invoiceId)!,
        paymentStatus: settled.find((x) => x.invoice.id === partner.invoiceId)!.paymentStatus,
      };
      return {
        ok: true,
        reversal,
        payment,
        invoiceNo: invoice.invoiceNo,
        paymentStatus,
        amountPaid,
        partner: partnerState,
        replayed: false,
      };
    });
  } catch (error) {
    // A refusal rolls the transaction back, so its key is free for a corrected retry.
    if (error instanceof Refusal) return error.failure;
    return idempotencyFailure(error);
  }
}

export const NO_CLIENT_CREDIT = "This invoice carries no client credit to refund";

/**
 * A write that changes two invoices (a credit move, or its reversal, or a month's batch of new
 * invoices) updates the kept totals of each (decision 0508), through the triggers, and so would
 * take their rows in another order than a write of one invoice takes them: a deadlock. It takes
 * the totals' tables whole instead, after its invoice rows and before it writes:
 * payment_day_totals first, as every write of one invoice takes its payment row first. Writes of
 * one invoice queue behind it for as long as it takes.
 */
export async function lockKeptTotals(tx: Executor) {
  await tx.execute(
    sql`lock table payment_day_totals, client_owed_totals, client_balances, invoice_status_totals, invoice_status_rollup in share row exclusive mode`,
  );
}

/** On a replay: the reversal of a credit move's other entry and its invoice now, or null. */
async function reversedPartner(tx: Executor, entry: Payment): Promise<ReversedOn | null> {
  const partner = await creditMovePartner(tx, entry);
  if (!partner) return null;
  const p = schema.payments;
  const [reversal] = await tx.select().from(p).where(eq(p.reversesPaymentId, partner.id));
  const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, partner.invoiceId));
  if (!reversal || !invoice) return null;
  return {
    reversal,
    invoiceNo: invoice.invoiceNo,
    paymentStatus: invoice.paymentStatus,
    amountPaid: invoice.amountPaid,
  };
}

/** The other half of a credit moved between invoices (migration 0017), or null for any other entry. */
async function creditMovePartner(tx: Executor, entry: Payment): Promise<Payment | null> {
  const p = schema.payments;
  if (entry.creditMovedToInvoiceId !== null) {
    const [moveIn] = await tx.select().from(p).where(eq(p.creditFromPaymentId, entry.id));
    return moveIn ?? null;
  }
  if (entry.creditFromPaymentId !== null) {
    const [moveOut] = await tx.select().from(p).where(eq(p.id, entry.creditFromPaymentId));
    return moveOut ?? null;
  }
  return null;
}

export const NO_CREDIT_TO_MOVE = "This invoice carries no client credit to move";

export type ApplyCreditResult =
  | {
      ok: true;
      /** The negative entry on the invoice that carried the credit, and the positive one where it went. */
      moveOut: Payment;
      moveIn: Payment;
      from: { invoiceNo: string; amountPaid: string; paymentStatus: Invoice["paymentStatus"]; creditLeft: string };
      to: { invoiceNo: string; amountPaid: string; paymentStatus: Invoice["paymentStatus"]; balance: string };
      replayed: boolean;
    }
  | Failure;

/**
 * Moves a client credit from the invoice that carries it to another invoice of the same client
 * that still owes (docs/decisions/0920, addendum "moving a client credit to another invoice"): a
 * negative entry on the first naming the second, and a positive entry on the second naming the
 * first, dated today, in one transaction; no money moves, so the Payments totals do not change.
 * At most the credit and at most what the second invoice owes. Both invoice rows are locked, in
 * id order, so moves, payments and refunds racing on either queue. Idempotent under a key,
 * audited, refused when today's month is closed. Reversed as a whole (`reversePayment` on either
 * entry takes back both).
 */
export async function applyClientCredit(
  actor: Actor,
  fromInvoiceId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: { idempotencyKey?: string | null } = {},
): Promise<ApplyCreditResult> {
  const refused = refuse(actor, "payment.record", `invoice/${fromInvoiceId}/credit-moves`);
  if (refused) return refused;
  if (idempotencyKey === null) return { ok: false, status: 400, message: INVALID_KEY_MESSAGE };
  const parsed = parseFields(ApplyCreditSchema, input);
  if (!parsed.ok) return parsed;
  const { toInvoiceId, amount } = parsed.data;
  if (toInvoiceId === fromInvoiceId) {
    const message = "Choose another invoice: the credit is already on this one";
    return { ok: false, status: 400, message, fieldErrors: { toInvoiceId: [message] } };
  }
  const today = todayIn(env().APP_TIME_ZONE, now);
  const p = schema.payments;
  const db = await getDb();
  try {
    return await db.transaction(async (tx): Promise<ApplyCreditResult> => {
      const view = (invoice: Invoice) => ({
        invoiceNo: invoice.invoiceNo,
        amountPaid: invoice.amountPaid,
        paymentStatus: invoice.paymentStatus,
      });
      if (idempotencyKey) {
        const hash = requestHash({ fromInvoiceId, toInvoiceId, amount });
        const existing = await claimKey(tx, {
          userId: actor.id,
          key: idempotencyKey,
          scope: "payment.apply_credit",
          hash,
        });
        if (existing) {
          const [moveOut] = await tx
            .select()
            .from(p)
            .where(eq(p.id, Number(existing)));
          const [moveIn] = moveOut ? await tx.select().from(p).where(eq(p.creditFromPaymentId, moveOut.id)) : [];
          const both = await tx
            .select()
            .from(schema.invoices)
            .where(inArray(schema.invoices.id, [fromInvoiceId, toInvoiceId]));
          const from = both.find((i) => i.id === fromInvoiceId);
          const to = both.find((i) => i.id === toInvoiceId);
          if (!moveOut || !moveIn || !from || !to)
            throw new Refusal({ ok: false, status: 409, message: "This credit was already moved" });
          return {
            ok: true,
            moveOut,
            moveIn,
            from: { ...view(from), creditLeft: clientCreditOf(from) },
            to: { ...view(to), balance: balanceOf(to) },
            replayed: true,
          };
        }
      }
      const locked = await tx
        .select()
        .from(schema.invoices)
        .where(inArray(schema.invoices.id, [fromInvoiceId, toInvoiceId]))
        .orderBy(schema.invoices.id)
        .for("update");
      const from = locked.find((i) => i.id === fromInvoiceId);
      const to = locked.find((i) => i.id === toInvoiceId);
      if (!from) throw new Refusal({ ok: false, status: 404, message: "Invoice not found" });
      // Today's month closed is said before anything about the invoices (as for payments).
      const closed = await checkPeriodOpen(tx, today);
      if (closed) throw new Refusal(closed);
      const notOwing = "Choose an invoice of the same client that still owes";
      if (!to || to.clientId !== from.clientId || isVoid(to) || compare(balanceOf(to), "0") <= 0) {
        throw new Refusal({ ok: false, status: 409, message: notOwing, fieldErrors: { toInvoiceId: [notOwing] } });
      }
      const credit = clientCreditOf(from);
      if (compare(amount, credit) > 0) {
        const message =
          compare(credit, "0") <= 0
            ? NO_CREDIT_TO_MOVE
            : `At most the client credit of ${formatNaira(credit)} can be moved`;
        throw new Refusal({ ok: false, status: 409, message, fieldErrors: { amount: [message] } });
      }
      const owes = balanceOf(to);
      if (compare(amount, owes) > 0) {
        const message = `Invoice #${to.invoiceNo} owes only ${formatNaira(owes)}`;
        throw new Refusal({ ok: false, status: 409, message, fieldErrors: { amount: [message] } });
      }
      await lockKeptTotals(tx);
      const [moveOut] = await tx
        .insert(p)
        .values({
          invoiceId: from.id,
          amount: toFixed(sub("0", amount)),
          paymentDate: today,
          creditMovedToInvoiceId: to.id,
          createdBy: actor.id,
        })
        .returning();
      const [moveIn] = await tx
        .insert(p)
        .values({ invoiceId: to.id, amount, paymentDate: today, creditFromPaymentId: moveOut.id, createdBy: actor.id })
        .returning();
      const fromPaid = toFixed(sub(from.amountPaid, amount));
      const toPaid = toFixed(add(to.amountPaid, amount));
      const fromAfter = {
        ...from,
        amountPaid: fromPaid,
        paymentStatus: statusAfterSettlement({ ...from, amountPaid: fromPaid }),
      };
      const toAfter = {
        ...to,
        amountPaid: toPaid,
        paymentStatus: statusAfterSettlement({ ...to, amountPaid: toPaid }),
      };
      for (const invoice of [fromAfter, toAfter]) {
        await tx
          .update(schema.invoices)
          .set({ amountPaid: invoice.amountPaid, paymentStatus: invoice.paymentStatus, updatedAt: now })
          .where(eq(schema.invoices.id, invoice.id));
      }
      await recordAudit(tx, {
        actor,
        action: "payment.apply_credit",
        entityType: "payment",
        entityId: moveOut.id,
        before: { from: view(from), to: view(to), clientCredit: credit },
        after: { moveOut, moveIn, from: view(fromAfter), to: view(toAfter) },
      });
      if (idempotencyKey) {
        await completeKey(tx, { userId: actor.id, key: idempotencyKey, resourceId: String(moveOut.id) });
        await deleteOldKeys(tx, now);
      }
      return {
        ok: true,
        moveOut,
        moveIn,
        from: { ...view(fromAfter), creditLeft: clientCreditOf(fromAfter) },
        to: { ...view(toAfter), balance: balanceOf(toAfter) },
        replayed: false,
      };
    });
  } catch (error) {
    if (error instanceof Refusal) return error.failure;
    return idempotencyFailure(error);
  }
}

export type CreditMoveTarget = { id: number; invoiceNo: string; balance: string; expectedPaymentDate: string };

export const CREDIT_MOVE_TARGETS = 50;

/**
 * The invoices of `clientId` that still owe, oldest due first, for Apply Credit's choice: at most
 * CREDIT_MOVE_TARGETS, read through invoices_client_owed_due_idx.
 */
export async function listCreditMoveTargets(actor: Actor, clientId: number, exceptInvoiceId: number) {
  assertCan(actor, "payment.record", `client/${clientId}/owed-invoices`);
  const rows = await creditMoveTargetsQuery(await getDb(), clientId, exceptInvoiceId);
  return rows.map<CreditMoveTarget>((r) => ({
    id: r.id,
    invoiceNo: r.invoiceNo,
    balance: balanceOf(r),
    expectedPaymentDate: r.expectedPaymentDate,
  }));
}

/** The query itself (the scale test EXPLAINs it). */
export function creditMoveTargetsQuery(db: Executor, clientId: number, exceptInvoiceId: number) {
  const i = schema.invoices;
  return db
    .select({
      id: i.id,
      invoiceNo: i.invoiceNo,
      amount: i.amount,
      amountPaid: i.amountPaid,
      amountCredited: i.amountCredited,
      paymentStatus: i.paymentStatus,
      expectedPaymentDate: i.expectedPaymentDate,
    })
    .from(i)
    .where(and(eq(i.clientId, clientId), owedSql(), sql`${i.id} <> ${exceptInvoiceId}`))
    .orderBy(i.expectedPaymentDate, i.id)
    .limit(CREDIT_MOVE_TARGETS);
}

/** The day of an invoice's latest payment entry or credit note entry, or null: two index probes. */
async function latestSettlementDate(tx: Executor, invoiceId: number): Promise<string | null> {
  const [row] = rowsOf<{ latest: string | null }>(
    await tx.execute(sql`select greatest(
        (select max(payment_date) from payments where invoice_id = ${invoiceId}),
        (select max(issue_date) from credit_notes where invoice_id = ${invoiceId}))::text as latest`),
  );
  return row?.latest ?? null;
}

export type RefundResult =
  | {
      ok: true;
      refund: Payment;
      invoiceNo: string;
      paymentStatus: "pending" | "partial" | "paid" | "overdue" | "void";
      amountPaid: string;
      /** The client credit the invoice still carries after the refund. */
      creditLeft: string;
      replayed: boolean;
    }
  | Failure;

/**
 * Pays money back to the client out of the credit an invoice carries (a credit note issued after
 * it was paid leaves one: decision 0920). A negative payments row marked `refund`, with its
 * reason in `note`, dated `paymentDate` (today by default; not in the future, not before the
 * invoice, not in a closed month); the invoice's paid total follows in the same transaction. At
 * most the credit: the invoice row is locked first, so two refunds racing for the same credit
 * queue and the second sees what the first paid back. Idempotent under `idempotencyKey`,
 * audited (docs/decisions/0920, addendum "refunding a client credit").
 */
export async function refundClientCredit(
  actor: Actor,
  invoiceId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: { idempotencyKey?: string | null } = {},
): Promise<RefundResult> {
  const refused = refuse(actor, "payment.refund", `invoice/${invoiceId}/refunds`);
  if (refused) return refused;
  if (idempotencyKey === null) return { ok: false, status: 400, message: INVALID_KEY_MESSAGE };
  const parsed = parseFields(RefundSchema, input);
  if (!parsed.ok) return parsed;
  const { amount, reference, reason } = parsed.data;
  const timeZone = env().APP_TIME_ZONE;
  const today = todayIn(timeZone, now);
  const paymentDate = parsed.data.paymentDate ?? today;
  const badDate = businessDateRefusal("Refund date", paymentDate, today, 0);
  if (badDate) return { ok: false, status: 400, message: badDate, fieldErrors: { paymentDate: [badDate] } };
  const p = schema.payments;
  const db = await getDb();
  try {
    return await db.transaction(async (tx): Promise<RefundResult> => {
      if (idempotencyKey) {
        const hash = requestHash({ invoiceId, amount, paymentDate: parsed.data.paymentDate, reference, reason });
        const existing = await claimKey(tx, { userId: actor.id, key: idempotencyKey, scope: "payment.refund", hash });
        if (existing) {
          const [refund] = await tx
            .select()
            .from(p)
            .where(eq(p.id, Number(existing)));
          const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
          if (!refund || !invoice)
            throw new Refusal({ ok: false, status: 409, message: "This refund was already recorded" });
          const { invoiceNo, paymentStatus, amountPaid } = invoice;
          return {
            ok: true,
            refund,
            invoiceNo,
            paymentStatus,
            amountPaid,
            creditLeft: clientCreditOf(invoice),
            replayed: true,
          };
        }
      }
      const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).for("update");
      if (!invoice) throw new Refusal({ ok: false, status: 404, message: "Invoice not found" });
      const closed = await checkPeriodOpen(tx, paymentDate);
      if (closed) throw new Refusal({ ...closed, fieldErrors: { paymentDate: [closed.message] } });
      if (paymentDate < invoice.issueDate) {
        const message = "Refund date cannot be before the invoice was created";
        throw new Refusal({ ok: false, status: 400, message, fieldErrors: { paymentDate: [message] } });
      }
      // Nor before the credit existed: not before the invoice's latest payment or credit note, so
      // a statement never shows the client owing in between.
      const latest = await latestSettlementDate(tx, invoiceId);
      if (latest && paymentDate < latest) {
        const message = `Refund date cannot be before the invoice's latest payment or credit note (${formatDate(latest)})`;
        throw new Refusal({ ok: false, status: 400, message, fieldErrors: { paymentDate: [message] } });
      }
      const credit = clientCreditOf(invoice);
      if (compare(amount, credit) > 0) {
        const message =
          compare(credit, "0") <= 0
            ? NO_CLIENT_CREDIT
            : `A refund can be at most the client credit of ${formatNaira(credit)}`;
        throw new Refusal({ ok: false, status: 409, message, fieldErrors: { amount: [message] } });
      }
      const [refund] = await tx
        .insert(p)
        .values({
          invoiceId,
          amount: toFixed(sub("0", amount)),
          paymentDate,
          reference: reference ?? null,
          note: reason,
          refund: true,
          createdBy: actor.id,
        })
        .returning();
      const amountPaid = toFixed(sub(invoice.amountPaid, amount));
      const paymentStatus = statusAfterSettlement({ ...invoice, amountPaid });
      await tx
        .update(schema.invoices)
        .set({ amountPaid, paymentStatus, updatedAt: now })
        .where(eq(schema.invoices.id, invoiceId));
      await recordAudit(tx, {
        actor,
        action: "payment.refund",
        entityType: "payment",
        entityId: refund.id,
        before: {
          invoiceId,
          invoiceNo: invoice.invoiceNo,
          amountPaid: invoice.amountPaid,
          paymentStatus: invoice.paymentStatus,
          clientCredit: credit,
        },
        after: { ...refund, invoiceNo: invoice.invoiceNo, amountPaid, paymentStatus },
      });
      if (idempotencyKey) {
        await completeKey(tx, { userId: actor.id, key: idempotencyKey, resourceId: String(refund.id) });
        await deleteOldKeys(tx, now);
      }
      const creditLeft = clientCreditOf({ ...invoice, amountPaid });
      return { ok: true, refund, invoiceNo: invoice.invoiceNo, paymentStatus, amountPaid, creditLeft, replayed: false };
    });
  } catch (error) {
    // A refusal rolls the transaction back, so its key is free for a corrected retry.
    if (error instanceof Refusal) return error.failure;
    return idempotencyFailure(error);
  }
}

/** A column of the outer query's payments row (see outerColumn). */
const outerPayment = (column: string) => outerColumn(schema.payments, column);

/** The day a payment (the row in the outer query) was reversed, or null: one probe of payments_reverses_idx. */
const reversedOnSql = () =>
  sql<
    string | null
  >`(select r.payment_date::text from ${schema.payments} r where r.reverses_payment_id = ${outerPayment("id")})`;

/** What a reversal takes back: a payment, a refund, or half of a credit move. */
export type ReversedKind = "payment" | "refund" | "credit move";

/**
 * What an entry links to. On a credit moved between invoices (migration 0017), the other
 * invoice's number: where a credit moved out went, and where a credit moved in came from. On a
 * reversal, the kind of entry it takes back. Null on other entries.
 */
export const paymentLinkColumns = () =>
  paymentLinksSql({
    reversesPaymentId: outerPayment("reverses_payment_id"),
    creditMovedToInvoiceId: outerPayment("credit_moved_to_invoice_id"),
    creditFromPaymentId: outerPayment("credit_from_payment_id"),
  });

/**
 * The lookups of `paymentLinkColumns`, over a payments row's three link columns as SQL (the
 * client statement passes its own alias). Each subquery runs only on the entries it concerns (a
 * case is evaluated lazily): most rows are plain payments and cost nothing here.
 */
export const paymentLinksSql = (row: {
  reversesPaymentId: SQL;
  creditMovedToInvoiceId: SQL;
  creditFromPaymentId: SQL;
}) => ({
  reversesKind: sql<ReversedKind | null>`(case when ${row.reversesPaymentId} is not null then
    (select case when r.refund then 'refund'
        when r.credit_moved_to_invoice_id is not null or r.credit_from_payment_id is not null then 'credit move'
        else 'payment' end
      from ${schema.payments} r where r.id = ${row.reversesPaymentId}) end)`,
  creditMovedToInvoiceNo: sql<string | null>`(case when ${row.creditMovedToInvoiceId} is not null then
    (select x.invoice_no from ${schema.invoices} x where x.id = ${row.creditMovedToInvoiceId}) end)`,
  creditFromInvoiceNo: sql<string | null>`(case when ${row.creditFromPaymentId} is not null then
    (select x.invoice_no from ${schema.payments} y join ${schema.invoices} x on x.id = y.invoice_id
      where y.id = ${row.creditFromPaymentId}) end)`,
});

export type PaymentToReverse = {
  /**
   * `refund` marks a refund to the client (negative): its reversal gives the client the credit
   * back. On half of a credit move, the other invoice's number: the move is reversed as a whole.
   */
  payment: {
    id: number;
    amount: string;
    paymentDate: string;
    reference: string | null;
    refund: boolean;
    creditMovedToInvoiceNo: string | null;
    creditFromInvoiceNo: string | null;
  };
  invoiceId: number;
  invoiceNo: string;
  clientName: string;
  /** The day it was reversed, when it was. */
  reversedOn: string | null;
};

/** A payment as the Reverse Payment dialog shows it; null for none (or a reversal). */
export async function getPaymentToReverse(actor: Actor, paymentId: number): Promise<PaymentToReverse | null> {
  assertCan(actor, "payment.reverse", `payment/${paymentId}`);
  const p = schema.payments;
  const db = await getDb();
  const [row] = await db
    .select({
      payment: {
        id: p.id,
        amount: p.amount,
        paymentDate: p.paymentDate,
        reference: p.reference,
        refund: p.refund,
        ...paymentLinkColumns(),
      },
      reversesPaymentId: p.reversesPaymentId,
      invoiceId: p.invoiceId,
      invoiceNo: schema.invoices.invoiceNo,
      clientName: schema.clients.name,
      reversedOn: reversedOnSql(),
    })
    .from(p)
    .innerJoin(schema.invoices, eq(schema.invoices.id, p.invoiceId))
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(eq(p.id, paymentId));
  if (!row || row.reversesPaymentId !== null) return null;
  const { reversesPaymentId: _r, ...shown } = row;
  return shown;
}

export const PAYMENT_PAGE_SIZE = 50;

export type PaymentFilters = { from?: string; to?: string; clientId?: number; invoiceNo?: string; reference?: string };

/** Filters from a query string; what cannot match is dropped, and `invalid` names it for /api. */
export function parsePaymentFilters(params: URLSearchParams): { filters: PaymentFilters; invalid: string | null } {
  const filters: PaymentFilters = {};
  let invalid: string | null = null;
  for (const key of ["from", "to"] as const) {
    const value = params.get(key);
    if (!value) continue;
    if (isValidDate(value)) filters[key] = value;
    else invalid ??= `The ${key} date is not valid`;
  }
  const client = params.get("clientId");
  if (client) {
    const id = parseId(client);
    if (id === null) invalid ??= "The client id is not valid";
    else filters.clientId = id;
  }
  const no = params.get("invoiceNo")?.trim().replace(/^#/, "");
  if (no) {
    const invoiceNo = parseInvoiceNo(no, { search: true });
    if (invoiceNo === null) invalid ??= "The invoice number is not valid";
    else filters.invoiceNo = invoiceNo;
  }
  const reference = params.get("reference")?.trim();
  if (reference && hasControlCharacters(reference)) invalid ??= "The reference is not valid";
  else if (reference) filters.reference = reference.slice(0, 200);
  return { filters, invalid };
}

export const isPaymentFiltered = (f: PaymentFilters) =>
  Boolean(f.from || f.to || f.clientId || f.invoiceNo || f.reference);

const invoiceIdOfNumber = (no: string) =>
  sql`(select ${schema.invoices.id} from ${schema.invoices} where ${schema.invoices.invoiceNo} = ${no})`;

function paymentWhere(f: PaymentFilters): SQL[] {
  const where: SQL[] = [];
  if (f.from) where.push(gte(schema.payments.paymentDate, f.from));
  if (f.to) where.push(lte(schema.payments.paymentDate, f.to));
  if (f.clientId) where.push(eq(schema.invoices.clientId, f.clientId));
  if (f.invoiceNo) where.push(sql`${schema.payments.invoiceId} = ${invoiceIdOfNumber(f.invoiceNo)}`);
  if (f.reference) where.push(referenceStartsWith(f.reference));
  return where;
}

/**
 * A reference search matches the start of the reference, ignoring case: `lower(reference) like
 * 'trf-12%'`, which the index on lower(reference) text_pattern_ops answers with the payments it
 * matches, however many payments there are. A match anywhere in the text (`%trf%`) had no index
 * to use and read every payment (decision 0502, addendum of stop 33).
 */
function referenceStartsWith(text: string): SQL {
  const prefix = text.replace(/[\\%_]/g, (c) => "\\" + c) + "%";
  return sql`lower(${schema.payments.reference}) like lower(${prefix})`;
}

const PAYMENT_KEYSET = { key: schema.payments.paymentDate, id: schema.payments.id };

export type PaymentView = {
  id: number;
  invoiceId: number;
  invoiceNo: string;
  clientName: string;
  amount: string;
  paymentDate: string;
  reference: string | null;
  createdAt: string;
  /** On a reversal: the payment it takes back; its reason is `note`. */
  reversesPaymentId: number | null;
  note: string | null;
  /** On a payment that was reversed: the day of its reversal. */
  reversedOn: string | null;
  /** A refund to the client (negative, its reason in `note`). */
  refund: boolean;
  /** On a credit moved between invoices: the other invoice's number (decision 0920). */
  creditMovedToInvoiceNo: string | null;
  creditFromInvoiceNo: string | null;
  /** On a reversal: what it takes back. */
  reversesKind: ReversedKind | null;
};

/** One page of payments, newest payment date first, keyset-paged on (payment date, id). */
export async function listPayments(
  actor: Actor,
  filters: PaymentFilters = {},
  { limit = PAYMENT_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
): Promise<Page<PaymentView>> {
  assertCan(actor, "payment.record", "payments");
  const rows = await paymentPageQuery(await getDb(), filters, page, limit);
  const result = toPage(rows, limit, page, (r) => ({ key: r.paymentDate, id: r.id }));
  return { ...result, items: result.items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

/** The page query itself (the scale tests EXPLAIN it). */
export function paymentPageQuery(db: Executor, filters: PaymentFilters, page: PageRequest, limit: number) {
  return db
    .select({
      id: schema.payments.id,
      invoiceId: schema.payments.invoiceId,
      invoiceNo: schema.invoices.invoiceNo,
      clientName: schema.clients.name,
      amount: schema.payments.amount,
      paymentDate: schema.payments.paymentDate,
      reference: schema.payments.reference,
      createdAt: schema.payments.createdAt,
      reversesPaymentId: schema.payments.reversesPaymentId,
      note: schema.payments.note,
      reversedOn: reversedOnSql(),
      refund: schema.payments.refund,
      ...paymentLinkColumns(),
    })
    .from(schema.payments)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.payments.invoiceId))
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(and(...paymentWhere(filters), keysetWhere(PAYMENT_KEYSET, page)))
    .orderBy(...keysetOrder(PAYMENT_KEYSET, page))
    .limit(limit + 1);
}

/** Every matching payment, newest first, in keyset batches; the capability is checked when called. */
export function paymentBatches(
  actor: Actor,
  filters: PaymentFilters = {},
  batchSize = 1000,
): AsyncGenerator<PaymentView[]> {
  assertCan(actor, "payment.record", "payments");
  return keysetBatches(
    (page) => listPayments(actor, filters, { limit: batchSize, page }),
    (last) => ({ key: last.paymentDate, id: last.id }),
  );
}

/**
 * Total Payments (count) and Total Amount (exact sum) for the current filter, in SQL. Date and
 * client filters read the per-day, per-client totals the payment trigger keeps (one row a day
 * a client); an invoice number reads that invoice's payments through their index; only a
 * reference search has to look at the payments themselves (docs/decisions/0500). The count is of
 * payments received that stand: not reversals, refunds or credits moved, nor a payment reversed
 * (decision 0300, "Total Payments").
 */
export async function paymentTotals(actor: Actor, filters: PaymentFilters = {}) {
  assertCan(actor, "payment.record", "payments/totals");
  const [row] = await paymentTotalsQuery(await getDb(), filters);
  return row;
}

export function paymentTotalsQuery(db: Executor, filters: PaymentFilters) {
  if (filters.invoiceNo || filters.reference) {
    // The payments matched, through the invoice's or the reference's index; their invoices only
    // for a client filter.
    const p = schema.payments;
    const matched = db
      .select({
        // Payments received that stand, as payment_day_totals.received counts them (migration 0032);
        // the reversal is looked up through payments_reverses_idx (the outer row named in full:
        // drizzle writes a bare "id" here, which would be the inner row's).
        count: sql<number>`(count(*) filter (where ${p.reversesPaymentId} is null and not ${p.refund}
          and ${p.creditMovedToInvoiceId} is null and ${p.creditFromPaymentId} is null
          and not exists (select 1 from ${p} r where r.reverses_payment_id = "payments"."id")))::int`,
        total: sql<string>`coalesce(sum(${schema.payments.amount}), 0)::numeric(18,2)::text`,
      })
      .from(schema.payments)
      .$dynamic();
    const scoped = filters.clientId
      ? matched.innerJoin(schema.invoices, eq(schema.invoices.id, schema.payments.invoiceId))
      : matched;
    return scoped.where(and(...paymentWhere(filters)));
  }
  const t = schema.paymentDayTotals;
  const where: SQL[] = [];
  if (filters.from) where.push(gte(t.paymentDate, filters.from));
  if (filters.to) where.push(lte(t.paymentDate, filters.to));
  if (filters.clientId) where.push(eq(t.clientId, filters.clientId));
  return db
    .select({
      count: sql<number>`coalesce(sum(${t.received}), 0)::int`,
      total: sql<string>`coalesce(sum(${t.amount}), 0)::numeric(18,2)::text`,
    })
    .from(t)
    .where(and(...where));
}
