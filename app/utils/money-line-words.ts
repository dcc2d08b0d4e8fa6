// The words a money line is shown with, on screen, in the PDF and in the CSV alike: written once,
// below both the components (the pages) and the presenters (the papers and exports), so the
// three never word one line three ways. Pure text and format: no markup, and nothing from the
// models (the lines are described by the fields the words read).
import { formatDate } from "~/utils/dates";
import { compare, formatNaira, isNegative, sub, toFixed } from "~/utils/money";

// ---- Payments: reversals, refunds, credit moves (docs/decisions/0920)

/** A reversal's line: the entry it takes back (a payment, a refund, half of a credit move), and why. */
export const paymentReversalText = ({
  reversesPaymentId,
  note,
  reversesKind,
}: {
  reversesPaymentId: number;
  note: string | null;
  reversesKind: string | null;
}) => `Reverses ${reversesKind ?? "payment"} #${reversesPaymentId}: ${note ?? ""}`;

/** A credit moved between two invoices of a client: the line on each names the other; null on other entries. */
export const creditMoveText = (line: { creditMovedToInvoiceNo: string | null; creditFromInvoiceNo: string | null }) =>
  line.creditMovedToInvoiceNo
    ? `Credit moved to invoice #${line.creditMovedToInvoiceNo}`
    : line.creditFromInvoiceNo
      ? `Credit from invoice #${line.creditFromInvoiceNo}`
      : null;

/** A refund's line: money paid back to the client, and why. */
export const refundText = ({ note }: { note: string | null }) => `Refund to the client: ${note ?? ""}`;

/** A refund with its bank reference, where one column holds both (statement, invoice document). */
export const refundWithReference = (line: { reference: string | null; note: string | null }) =>
  line.reference ? `${line.reference} · ${refundText(line)}` : refundText(line);

// ---- Credit notes (docs/decisions/0920)

/** A reversal's line: the credit note it takes back, and why. */
export const creditNoteReversalText = ({
  reversesCreditNoteNo,
  reason,
}: {
  reversesCreditNoteNo: string | null;
  reason: string | null;
}) => `Reverses ${reversesCreditNoteNo ?? "a credit note"}: ${reason ?? ""}`;

// ---- Agent statement

/** What each kind of agent statement line is called. */
export const AGENT_LINE_TYPES = { delivery: "Delivery", payout: "Payout", reversal: "Payout reversal" } as const;

/**
 * What a payout's line adds to its type (docs/decisions/1250): an advance says so; one awaiting
 * approval or rejected gives its amount, which its Paid out column leaves out, and a rejection
 * its reason.
 */
export function payoutStatusText(line: {
  kind: string;
  payoutKind: "settlement" | "advance" | null;
  status: "approved" | "pending" | "rejected" | null;
  amount: string | null;
  reason: string | null;
}) {
  if (line.kind !== "payout") return null;
  const parts = line.payoutKind === "advance" ? ["Advance"] : [];
  if (line.status === "pending") parts.push(`Awaiting approval: ${line.amount ?? ""}`);
  if (line.status === "rejected") parts.push(`Rejected: ${line.amount ?? ""}: ${line.reason ?? ""}`);
  return parts.length ? parts.join("; ") : null;
}

/** A payout reversal's line: the payout it takes back, and why. */
export const reversalText = (line: { reversesPayoutId: number | null; reason: string | null }) =>
  `Reverses payout #${line.reversesPayoutId}: ${line.reason ?? ""}`;

// ---- Client statement (docs/decisions/0970)

/** What each kind of client statement line is called. */
const CLIENT_LINE_TYPES = {
  invoice: "Invoice",
  credit_note: "Credit note",
  credit_note_reversal: "Credit note reversal",
  payment: "Payment",
  payment_reversal: "Payment reversal",
  refund: "Refund",
  credit_moved_out: "Credit moved",
  credit_moved_in: "Credit moved",
  wht_withheld: "WHT withheld",
  wht_withheld_reversal: "WHT withheld reversed",
  vat_withheld: "VAT withheld",
  vat_withheld_reversal: "VAT withheld reversed",
} as const;

/** The fields of a client statement line its words read. */
type ClientLine = {
  kind: keyof typeof CLIENT_LINE_TYPES;
  void: boolean;
  reference: string | null;
  invoiceNo: string;
  reversesPaymentId: number | null;
  note: string | null;
  reversesKind: string | null;
};

/** The Type column: the kind, and "(void)" on a void invoice. */
export const clientLineType = (line: ClientLine) => `${CLIENT_LINE_TYPES[line.kind]}${line.void ? " (void)" : ""}`;

/** Whether the line's amount is a debit (an invoice); the rest are credits, a payment reversal a negative one. */
export const isDebitLine = (line: Pick<ClientLine, "kind">) => line.kind === "invoice";

/**
 * What a client withheld from a receipt (decision 1240): "Receipt #12, invoice #127"; its reversal
 * names the receipt reversed.
 */
export const withheldText = (line: { kind: string; reference: string | null; invoiceNo: string }) =>
  `${line.kind.endsWith("_reversal") ? "Receipt reversed" : "Receipt"} #${line.reference ?? ""}, invoice #${line.invoiceNo}`;

/** The Reference column: the payment's or credit note's reference; on a reversal, what it takes back and why. */
export function clientLineReference(line: ClientLine) {
  if (line.kind.startsWith("wht_withheld") || line.kind.startsWith("vat_withheld")) return withheldText(line);
  if (line.kind === "payment_reversal" && line.reversesPaymentId !== null)
    return paymentReversalText({
      reversesPaymentId: line.reversesPaymentId,
      note: line.note,
      reversesKind: line.reversesKind,
    });
  if (line.kind === "refund") return refundWithReference(line);
  if (line.kind === "credit_moved_out") return `To invoice #${line.note ?? ""}`;
  if (line.kind === "credit_moved_in") return `From invoice #${line.note ?? ""}`;
  if (line.kind === "credit_note_reversal" && line.reference !== null)
    return creditNoteReversalText({ reversesCreditNoteNo: line.reference, reason: line.note });
  return line.reference ?? "";
}

// ---- Invoice document: what it lists under its amount, and its last line

/** An entry an invoice document lists under its amount: a payment, a credit note, their reversals. */
export type InvoiceReceived = {
  kind: "payment" | "reversal" | "refund" | "refund_reversal" | "credit" | "credit_reversal" | "credit_moved";
  date: string;
  reference: string | null;
  /** Negative on a reversal. */
  amount: string;
};

const RECEIVED_LABELS = {
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
  `${RECEIVED_LABELS[r.kind]} ${formatDate(r.date)}${r.reference ? ` (${r.reference})` : ""}`;

/**
 * Taken off what is due ("-₦5,000.00": a payment, a credit note, a reversed refund), or added
 * back ("+₦5,000.00": a reversal of a payment or credit note, a refund), by the entry's sign.
 */
export const receivedAmount = (r: InvoiceReceived) =>
  isNegative(r.amount) ? `+${formatNaira(sub("0", r.amount))}` : `-${formatNaira(r.amount)}`;

/**
 * The totals' last line: what is still due, or, when payments and credit notes went past the
 * amount, the client's credit, worded as the invoice page words it ("Credit ₦x").
 */
export function balanceLine(doc: { balance: string }): { label: string; amount: string } {
  return isNegative(doc.balance)
    ? { label: "Credit", amount: formatNaira(toFixed(sub("0", doc.balance))) }
    : { label: "Balance Due", amount: formatNaira(doc.balance) };
}

/** Payment instructions only while something is due: never on a void, paid or over-credited invoice. */
export function asksForPayment(doc: {
  voided: boolean;
  balance: string;
  business: { bankName: string | null; bankAccountNo: string | null };
}): boolean {
  const { bankName, bankAccountNo } = doc.business;
  return Boolean(bankName || bankAccountNo) && !doc.voided && compare(doc.balance, "0") > 0;
}
