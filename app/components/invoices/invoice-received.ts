// What an invoice document lists under its amount (payments, credit notes and their reversals),
// worded once for the print page and the PDF.
import { formatDate } from "~/utils/dates";
import { formatNaira, isNegative, sub } from "~/utils/money";

export type InvoiceReceived = {
  kind: "payment" | "reversal" | "refund" | "refund_reversal" | "credit" | "credit_reversal" | "credit_moved";
  date: string;
  reference: string | null;
  /** Negative on a reversal. */
  amount: string;
};

const LABELS = {
  payment: "Payment",
  reversal: "Payment reversed",
  refund: "Refunded to the client",
  refund_reversal: "Refund reversed",
  credit_moved: "Client credit",
  credit: "Credit note",
  credit_reversal: "Credit note reversed",
} as const;

/** "Payment 3 Nov 2026 (ref)". */
export const receivedLabel = (r: InvoiceReceived) =>
  `${LABELS[r.kind]} ${formatDate(r.date)}${r.reference ? ` (${r.reference})` : ""}`;

/**
 * Taken off what is due ("-₦5,000.00": a payment, a credit note, a reversed refund), or added
 * back ("+₦5,000.00": a reversal of a payment or credit note, a refund), by the entry's sign.
 */
export const receivedAmount = (r: InvoiceReceived) =>
  isNegative(r.amount) ? `+${formatNaira(sub("0", r.amount))}` : `-${formatNaira(r.amount)}`;
