// An agent statement's address. Its lines' words are in app/utils/money-line-words.ts, shared with
// its CSV and its PDF.

/**
 * An agent statement's own address with the period it was showing (only its dates are kept):
 * where Record Payout and Reverse Payout return to.
 */
export function agentStatementUrl(id: number, search: URLSearchParams) {
  const keep = new URLSearchParams();
  for (const name of ["from", "to"]) {
    const value = search.get(name);
    if (value) keep.set(name, value);
  }
  return `/agents/${id}/statement${keep.size ? `?${keep}` : ""}`;
}
