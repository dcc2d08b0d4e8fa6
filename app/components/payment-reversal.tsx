// A payment reversal's and a refund's words and addresses (docs/decisions/0920, addenda of 26
// November), written once for the Payments page, the invoice page and document, the client
// statement and the CSV exports.

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
