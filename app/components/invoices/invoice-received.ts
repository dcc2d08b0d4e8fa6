// What an invoice document lists under its amount (payments, credit notes and their reversals),
// worded once for the print page and the PDF.
import { formatDeliveryDate } from "~/utils/dates";
import { formatNaira, sub } from "~/utils/money";

export type InvoiceReceived = {
  kind: "payment" | "reversal" | "refund" | "credit" | "credit_reversal";
  date: string;
  reference: string | null;
  /** Negative on a reversal. */
  amount: string;
};

const LABELS = {
  payment: "Payment",
  reversal: "Payment reversed",
  refund: "Refunded to the client",
  credit: "Credit note",
  credit_reversal: "Credit note reversed",
} as const;

/** "Payment 3 Nov 2026 (ref)". */
export const receivedLabel = (r: InvoiceReceived) =>
  `${LABELS[r.kind]} ${formatDeliveryDate(r.date)}${r.reference ? ` (${r.reference})` : ""}`;

/** Taken off the amount ("-₦5,000.00"), or, for a reversal or a refund, added back ("+₦5,000.00"). */
export const receivedAmount = (r: InvoiceReceived) =>
  r.kind === "reversal" || r.kind === "refund" || r.kind === "credit_reversal"
    ? `+${formatNaira(sub("0", r.amount))}`
    : `-${formatNaira(r.amount)}`;
