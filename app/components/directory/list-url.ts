// Where an Agents or Clients dialog returns to: the list as it was when the dialog opened (its
// search and page), so editing or deleting on page 3 of a search comes back there. Only the
// list's own parameters are kept; anything else in the URL is dropped.
const LIST_PARAMS = ["q", "cursor", "before"] as const;

/** `?q=…&cursor=…` from a URL's search part (or ""), keeping only the list's parameters. */
export function listSearch(search: string | URLSearchParams): string {
  const from = typeof search === "string" ? new URLSearchParams(search) : search;
  const kept = new URLSearchParams();
  for (const name of LIST_PARAMS) {
    const value = from.get(name);
    if (value) kept.set(name, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : "";
}

/** The list a dialog request came from: `/agents?q=…` for a request to `/agents/7/edit?q=…`. */
export const listUrlOf = (listPath: "/agents" | "/clients", requestUrl: string) =>
  `${listPath}${listSearch(new URL(requestUrl).searchParams)}`;
