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

/** A settlement pays what deliveries earned; an advance is paid before them (docs/decisions/1250). */
export const PAYOUT_KIND_LABELS = {
  settlement: "Settlement (what is owed)",
  advance: "Advance (recovered from later deliveries)",
} as const;

export type PayoutKind = keyof typeof PAYOUT_KIND_LABELS;

/** Only an approved payout counts as paid; one above the approval limit waits for a second admin. */
export const PAYOUT_STATUS_LABELS = {
  approved: "Approved",
  pending: "Awaiting approval",
  rejected: "Rejected",
} as const;

export type PayoutStatus = keyof typeof PAYOUT_STATUS_LABELS;
