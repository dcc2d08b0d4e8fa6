// A payment reversal's addresses (docs/decisions/0920). The words of
// reversals, refunds and credit moves are in app/utils/money-line-words.ts, shared with the
// invoice document, the client statement and the CSV exports.

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
