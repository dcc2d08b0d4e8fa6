// When a list's loader runs again (decision 0200). Under single fetch Remix
// runs every matched loader on every navigation unless the route says otherwise (it calls a
// route's `shouldRevalidate` with `defaultShouldRevalidate: true`), so opening a dialog over a
// list loaded the whole list again, and its rows, for nothing.
import type { Params, ShouldRevalidateFunction } from "@remix-run/react";

/**
 * A list route's `shouldRevalidate`: its loader is not run again when the navigation stays on
 * the list and its dialogs (`listPath`, or the path made from the route's params, and the paths
 * under it), is a plain GET (not a
 * submission, nor the redirect after one, which carries the submission's method), goes to another
 * address, and leaves the list's own query as it was (`sameList`, the whole search by default).
 * Anything else (a save, a delete, the first navigation after one, a new filter or page, the same
 * address again) runs it.
 */
export function keepListBehindDialogs(
  listPath: string | ((params: Params) => string),
  sameList: (current: URL, next: URL) => boolean = (current, next) => current.search === next.search,
): ShouldRevalidateFunction {
  const pathOf = typeof listPath === "string" ? () => listPath : listPath;
  const under = (url: URL, path: string) => url.pathname === path || url.pathname.startsWith(`${path}/`);
  // Set by a submission, cleared by the next plain navigation, which then loads too: a click that
  // interrupts the reload after a save (Done on User Created while the list reloads) would
  // otherwise keep the list from before the save. React Router knows of that interruption, but
  // under single fetch Remix hides it (`defaultShouldRevalidate` is always true).
  let submitted = false;
  return ({ currentUrl, nextUrl, currentParams, nextParams, formMethod, actionResult, defaultShouldRevalidate }) => {
    if (formMethod && formMethod.toUpperCase() !== "GET") {
      submitted = true;
      // A money dialog's post that got no answer (app/utils/unanswered.ts): nothing loads now (a
      // dialog's loader would hand out a new key); the next plain navigation (Close) does, since
      // the post may have landed.
      return !actionResult?.unanswered && defaultShouldRevalidate;
    }
    if (submitted) {
      submitted = false;
      return defaultShouldRevalidate;
    }
    const path = pathOf(currentParams);
    const stays = path === pathOf(nextParams) && under(currentUrl, path) && under(nextUrl, path);
    if (currentUrl.href === nextUrl.href || !stays) return defaultShouldRevalidate;
    return sameList(currentUrl, nextUrl) ? false : defaultShouldRevalidate;
  };
}
