// A payment reversal's and a refund's words and addresses (docs/decisions/0920, addenda of 26
// November), written once for the Payments page, the invoice page and document, the client
// statement and the CSV exports.

import { isNegative } from "~/utils/money";

/**
 * A reversal's line: the payment it takes back, and why. `amount` is the reversal's own: positive
 * when it takes back a refund (a negative entry).
 */
export const paymentReversalText = ({
  reversesPaymentId,
  note,
  amount,
}: {
  reversesPaymentId: number;
  note: string | null;
  amount: string;
}) => `Reverses ${isNegative(amount) ? "payment" : "refund"} #${reversesPaymentId}: ${note ?? ""}`;

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

/** The Payments list's own query (filters and page), which Reverse Payment opens over and returns to. */
const listQuery = (search: URLSearchParams) => {
  const query = search.toString();
  return query ? `?${query}` : "";
};

/** Reverse Payment, over the Payments list as `search` filters and pages it. */
export const reversePaymentUrl = (paymentId: number, search = new URLSearchParams()) =>
  `/payments/${paymentId}/reverse${listQuery(search)}`;

/** The Payments list Reverse Payment was opened over. */
export const paymentsListUrl = (search: URLSearchParams) => `/payments${listQuery(search)}`;
