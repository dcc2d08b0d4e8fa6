// How an agent was paid (docs/decisions/0980): the values stored and their labels. Its own
// module, free of zod and the date parser, so the pages that show the labels send no more
// JavaScript than the labels (the Record Payout schema in ~/schemas/settlements uses it too).
export const PAYOUT_METHOD_LABELS = {
  cash: "Cash",
  bank_transfer: "Bank transfer",
  cheque: "Cheque",
  other: "Other",
} as const;

export type PayoutMethod = keyof typeof PAYOUT_METHOD_LABELS;
