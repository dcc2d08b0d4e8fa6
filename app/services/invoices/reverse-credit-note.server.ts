// Reverse Credit Note (docs/decisions/0920): takes back a credit note issued in error (the wrong
// amount, the wrong invoice). The credit note stays as it was, number and all; a reversal row of
// the opposite amount, without a number of its own, dated today and naming the credit note, is
// added, and the invoice's credited total and status follow, so the invoice is owed the amount
// again and can take a corrected credit note. A credit note is reversed at most once: the
// invoice row is locked, as credit notes and payments lock it, and a unique index backs it. Runs
// on the keyed write pipeline (decision 0805).
import { eq } from "drizzle-orm";
import type * as z from "zod";
import { schema, type CreditNote, type Invoice } from "~/db.server";
import {
  CREDIT_NOTE_NOT_FOUND,
  CREDIT_NOTE_REVERSAL_NOT_REVERSIBLE,
  issued,
  setAmountCredited,
  type IssuedCreditNote,
} from "~/models/credit-note.server";
import type { Actor } from "~/rules/capabilities.server";
import { CreditNoteReversalSchema } from "~/schemas/invoice";
import { parseFields } from "~/schemas/parse-fields.server";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { formatDate } from "~/utils/dates";
import { sub, toFixed } from "~/utils/money";
import { fail, type Failure } from "~/utils/result";

type Input = z.output<typeof CreditNoteReversalSchema>;
type Locked = { creditNote: CreditNote; invoice: Invoice };
type Reversed = { reversal: CreditNote; creditNote: IssuedCreditNote; invoice: Invoice };

export type ReverseCreditNoteResult = ({ ok: true; replayed: boolean } & Reversed) | Failure;

const c = schema.creditNotes;

const reverseCreditNoteCommand: KeyedCommand<Input, Locked, Reversed> = {
  capability: "credit_note.reverse",
  object: (input) => `credit_note/${String(input.creditNoteId ?? "")}/reversal`,
  scope: "credit_note.reverse",
  parse: (input) => parseFields(CreditNoteReversalSchema, input),
  hash: ({ creditNoteId, reason }) => ({ creditNoteId, reason }),
  async replay(tx, resourceId) {
    const [reversal] = await tx
      .select()
      .from(c)
      .where(eq(c.id, Number(resourceId)));
    const [creditNote] = reversal ? await tx.select().from(c).where(eq(c.id, reversal.reversesCreditNoteId!)) : [];
    const [invoice] = creditNote
      ? await tx.select().from(schema.invoices).where(eq(schema.invoices.id, creditNote.invoiceId))
      : [];
    if (!reversal || !creditNote || !invoice) refuseWith(fail(409, "This reversal was already recorded"));
    return { reversal, creditNote: issued(creditNote), invoice };
  },
  async lock(tx, { creditNoteId, invoiceId }) {
    // Read once: a credit note never changes (append-only, migration 0014).
    const [creditNote] = await tx.select().from(c).where(eq(c.id, creditNoteId));
    // With `invoiceId` (the dialog's address names both), a credit note of another invoice is not found.
    if (!creditNote || (invoiceId !== undefined && invoiceId !== null && creditNote.invoiceId !== invoiceId))
      refuseWith(fail(404, CREDIT_NOTE_NOT_FOUND));
    // Locked next: two reversals of one credit note queue here, and the second finds the first.
    const [invoice] = await tx
      .select()
      .from(schema.invoices)
      .where(eq(schema.invoices.id, creditNote.invoiceId))
      .for("update");
    return { creditNote, invoice };
  },
  // The reversal is dated today: not in a closed month (decision 0901).
  landsOn: (_input, _locked, { today }) => today,
  async check(tx, { creditNoteId }, { creditNote }) {
    if (creditNote.reversesCreditNoteId !== null) refuseWith(fail(409, CREDIT_NOTE_REVERSAL_NOT_REVERSIBLE));
    const [earlier] = await tx.select().from(c).where(eq(c.reversesCreditNoteId, creditNoteId));
    if (earlier)
      refuseWith(
        fail(409, `Credit note ${creditNote.creditNoteNo} was already reversed on ${formatDate(earlier.issueDate)}`),
      );
  },
  async write(tx, { reason }, { creditNote, invoice }, { actor, now, today }) {
    const [reversal] = await tx
      .insert(c)
      .values({
        creditNoteNo: null,
        invoiceId: creditNote.invoiceId,
        amount: toFixed(sub("0", creditNote.amount)),
        reason,
        issueDate: today,
        reversesCreditNoteId: creditNote.id,
        createdBy: actor.id,
      })
      .returning();
    const credited = await setAmountCredited(tx, invoice, toFixed(sub(invoice.amountCredited, creditNote.amount)), now);
    return {
      made: { reversal, creditNote: issued(creditNote), invoice: credited.updated },
      resourceId: reversal.id,
      audit: [
        {
          action: "credit_note.reverse",
          entityType: "credit_note",
          entityId: creditNote.id,
          before: { ...creditNote, ...credited.before },
          after: { ...reversal, ...credited.after },
        },
      ],
    };
  },
};

/**
 * Reverses credit note `creditNoteId` with the reason in `input`: idempotent under
 * `idempotencyKey`, refused when today's month is closed, audited in the same transaction. With
 * `invoiceId`, a credit note of another invoice is not found.
 */
export function reverseCreditNote(
  actor: Actor,
  creditNoteId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey, invoiceId }: Pick<KeyOptions, "idempotencyKey"> & { invoiceId?: number } = {},
): Promise<ReverseCreditNoteResult> {
  return keyedWrite(reverseCreditNoteCommand, actor, { ...input, creditNoteId, invoiceId }, { idempotencyKey, now });
}
