// Where an Agents, Clients or Trucks dialog returns to: the list as it was when the dialog opened (its
// search and page). The rule is the one every list's dialogs follow (app/utils/list-search.ts).
import { DIRECTORY_LIST_PARAMS, keptSearch, listUrlFrom } from "~/utils/list-search";

/** `?q=…&cursor=…` from a URL's search part (or ""), keeping only the list's parameters. */
export const listSearch = (search: string | URLSearchParams) => keptSearch(search, DIRECTORY_LIST_PARAMS);

/** The list a dialog request came from: `/agents?q=…` for a request to `/agents/7/edit?q=…`. */
export const listUrlOf = (listPath: "/agents" | "/clients" | "/trucks", requestUrl: string) =>
  listUrlFrom(listPath, requestUrl, DIRECTORY_LIST_PARAMS);
