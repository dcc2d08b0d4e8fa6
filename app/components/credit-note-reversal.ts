// A credit note reversal's address (docs/decisions/0920). Its
// words are in app/utils/money-line-words.ts, shared with the invoice document and the exports.

/** Reverse Credit Note, over its invoice's page. */
export const reverseCreditNoteUrl = (invoiceId: number, creditNoteId: number) =>
  `/invoices/${invoiceId}/credit-notes/${creditNoteId}/reverse`;
