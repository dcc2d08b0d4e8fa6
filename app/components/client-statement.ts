// A client statement line's shared words (docs/decisions/0970), for the page, its CSV and its
// PDF alike.
import type { StatementLine } from "~/presenters/client-statement.server";
import { creditNoteReversalText } from "./credit-note-reversal";
import { paymentReversalText, refundWithReference } from "./payment-reversal";

type Line = Pick<StatementLine, "kind" | "void" | "reference" | "reversesPaymentId" | "note" | "reversesKind">;

/** What each kind of statement line is called. */
export const CLIENT_LINE_TYPES = {
  invoice: "Invoice",
  credit_note: "Credit note",
  credit_note_reversal: "Credit note reversal",
  payment: "Payment",
  payment_reversal: "Payment reversal",
  refund: "Refund",
  credit_moved_out: "Credit moved",
  credit_moved_in: "Credit moved",
} as const;

/** The Type column: the kind, and "(void)" on a void invoice. */
export const clientLineType = (line: Line) => `${CLIENT_LINE_TYPES[line.kind]}${line.void ? " (void)" : ""}`;

/** Whether the line's amount is a debit (an invoice); the rest are credits, a payment reversal a negative one. */
export const isDebitLine = (line: Pick<StatementLine, "kind">) => line.kind === "invoice";

/** The Reference column: the payment's or credit note's reference; on a reversal, what it takes back and why. */
export function clientLineReference(line: Line) {
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
