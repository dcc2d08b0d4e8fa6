// A payment reversal's words and addresses (docs/decisions/0920, addendum of 26 November),
// written once for the Payments page, the invoice page and document, the client statement and
// the CSV exports.

/** A reversal's line: the payment it takes back, and why. */
export const paymentReversalText = ({ reversesPaymentId, note }: { reversesPaymentId: number; note: string | null }) =>
  `Reverses payment #${reversesPaymentId}: ${note ?? ""}`;

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

type Line = { reversesPaymentId: number | null; reversedOn: string | null };

/** Whether a line can still be reversed: a payment (not a reversal) not taken back yet. */
export const isReversible = (line: Line) => line.reversesPaymentId === null && !line.reversedOn;

/** The mark on a payment line: "Reversal" on a reversal, "Reversed" on a payment taken back. */
export function ReversalBadge({ reversesPaymentId, reversedOn }: Line) {
  if (reversesPaymentId !== null) return <span className="badge tone-amber ml-2">Reversal</span>;
  if (reversedOn) return <span className="badge tone-slate ml-2">Reversed</span>;
  return null;
}
