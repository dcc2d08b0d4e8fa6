// Where a dialog opened over a list returns to: the list as it was when the dialog opened (its
// filters and page), so editing on page 3 of a filtered list comes back there (decision 0200).
// Only the list's own parameters are kept; anything else in the URL is dropped.

export const DIRECTORY_LIST_PARAMS = ["q", "cursor", "before"] as const;
export const DELIVERY_LIST_PARAMS = [
  "from",
  "to",
  "status",
  "agentId",
  "clientId",
  "site",
  "cursor",
  "before",
] as const;
export const INVOICE_LIST_PARAMS = ["status", "clientId", "from", "to", "invoiceNo", "cursor", "before"] as const;

/**
 * `?status=…&cursor=…` from a URL's search part (or ""), keeping only the named parameters, in
 * the URL's own order and with their values as given (an empty filter field stays), so a dialog
 * opened from the list has the list's own search (the list is then not loaded again behind it:
 * `keepListBehindDialogs`), and closing it returns to the very same address.
 */
export function keptSearch(search: string | URLSearchParams, names: readonly string[]): string {
  const from = typeof search === "string" ? new URLSearchParams(search) : search;
  const kept = new URLSearchParams();
  for (const [name, value] of from) {
    // The list reads the first value of each name; a repeated one would change nothing.
    if (names.includes(name) && !kept.has(name)) kept.set(name, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : "";
}

/** The list a dialog request came from: `/deliveries?status=…` for `/deliveries/7/edit?status=…`. */
export const listUrlFrom = (listPath: string, requestUrl: string, names: readonly string[]) =>
  `${listPath}${keptSearch(new URL(requestUrl).searchParams, names)}`;
