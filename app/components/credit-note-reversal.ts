// A credit note reversal's words and address (docs/decisions/0920, addendum "reversing a credit
// note"), written once for the invoice page and document, the client statement and its exports.

/** A reversal's line: the credit note it takes back, and why. */
export const creditNoteReversalText = ({
  reversesCreditNoteNo,
  reason,
}: {
  reversesCreditNoteNo: string | null;
  reason: string | null;
}) => `Reverses ${reversesCreditNoteNo ?? "a credit note"}: ${reason ?? ""}`;

/** Reverse Credit Note, over its invoice's page. */
export const reverseCreditNoteUrl = (invoiceId: number, creditNoteId: number) =>
  `/invoices/${invoiceId}/credit-notes/${creditNoteId}/reverse`;
