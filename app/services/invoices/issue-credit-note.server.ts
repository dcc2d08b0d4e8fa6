// Issue Credit Note (docs/decisions/0920): a credit of `amount` against an invoice that is not
// void, at most the invoice amount less earlier credits (a credit beyond what is unpaid leaves
// the client a credit balance). The invoice row is locked first, as payments lock it, so credits
// and payments racing on one invoice queue and each sees what the others settled. Runs on the
// keyed write pipeline (decision 0805).
import { eq } from "drizzle-orm";
import type * as z from "zod";
import { schema, type Invoice } from "~/db.server";
import {
  claimCreditNoteNumber,
  FULLY_CREDITED,
  issued,
  setAmountCredited,
  VOID_INVOICE_CREDIT,
  type IssuedCreditNote,
} from "~/models/credit-note.server";
import type { Actor } from "~/rules/capabilities.server";
import { isVoid } from "~/rules/invoices.server";
import { CreditNoteSchema } from "~/schemas/invoice";
import { parseFields } from "~/schemas/parse-fields.server";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { add, compare, formatNaira, sub, toFixed } from "~/utils/money";
import { fail, type Failure } from "~/utils/result";

type Input = z.output<typeof CreditNoteSchema>;
type Issued = { creditNote: IssuedCreditNote; invoice: Invoice };

export type CreateCreditNoteResult = ({ ok: true; replayed: boolean } & Issued) | Failure;

const issueCreditNoteCommand: KeyedCommand<Input, Invoice, Issued> = {
  capability: "credit_note.create",
  object: (input) => `invoice/${String(input.invoiceId ?? "")}/credit-notes`,
  scope: "credit_note.create",
  parse: (input) => parseFields(CreditNoteSchema, input),
  hash: ({ invoiceId, amount, reason }) => ({ invoiceId, amount, reason }),
  async replay(tx, resourceId, { invoiceId }) {
    const [creditNote] = await tx
      .select()
      .from(schema.creditNotes)
      .where(eq(schema.creditNotes.id, Number(resourceId)));
    const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
    if (!creditNote || !invoice) refuseWith(fail(409, "This credit note was already issued"));
    return { creditNote: issued(creditNote), invoice };
  },
  async lock(tx, { invoiceId }) {
    const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).for("update");
    return invoice ?? refuseWith(fail(404, "Invoice not found"));
  },
  // A credit note is dated the day it is issued: not in a closed month (decision 0901).
  landsOn: (_input, _invoice, { today }) => today,
  check(_tx, { amount }, invoice) {
    if (isVoid(invoice)) refuseWith(fail(409, VOID_INVOICE_CREDIT));
    const limit = sub(invoice.amount, invoice.amountCredited);
    if (compare(amount, limit) > 0) {
      const message =
        compare(limit, "0") <= 0
          ? FULLY_CREDITED
          : `A credit note can be at most ${formatNaira(limit)} (the invoice amount less earlier credits)`;
      refuseWith(fail(409, message, { amount: [message] }));
    }
  },
  async write(tx, { invoiceId, amount, reason }, invoice, { actor, now, today }) {
    const creditNoteNo = await claimCreditNoteNumber(tx);
    const [creditNote] = await tx
      .insert(schema.creditNotes)
      .values({ creditNoteNo, invoiceId, amount, reason, issueDate: today, createdBy: actor.id })
      .returning();
    const credited = await setAmountCredited(tx, invoice, toFixed(add(invoice.amountCredited, amount)), now);
    return {
      made: { creditNote: issued(creditNote), invoice: credited.updated },
      resourceId: creditNote.id,
      audit: [
        {
          action: "credit_note.create",
          entityType: "credit_note",
          entityId: creditNote.id,
          before: { invoiceId, ...credited.before },
          after: { ...creditNote, ...credited.after },
        },
      ],
    };
  },
};

/** Issues a credit note against invoice `invoiceId`, and the invoice's new credited total and status. */
export function createCreditNote(
  actor: Actor,
  invoiceId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<CreateCreditNoteResult> {
  return keyedWrite(issueCreditNoteCommand, actor, { ...input, invoiceId }, { idempotencyKey, now });
}
