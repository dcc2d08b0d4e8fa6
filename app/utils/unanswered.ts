// A money dialog's submission that got no answer (the connection dropped after the post left)
// may have been recorded. Before, the failed fetch went to the error page and the form, with its
// key, was gone: the dialog opened again with a new key, and the same payment typed again was
// recorded twice. Now the dialog stays as it was, with its key, and says so; sent again, the
// key replays what landed or records it once (decision 0300).
import { isRouteErrorResponse, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";

const UNANSWERED_MESSAGE =
  "No answer from the server: this may or may not have been saved. Send it again: it will not be recorded twice.";

/**
 * A dialog route's `clientAction`: the server's answer as it is (a refusal, a redirect, a thrown
 * answer such as the 503 page), or, when no answer of the app's came back (fetch's TypeError, a
 * proxy's 502 page that is not the app's data, an answer cut off mid-way), the form's own values
 * and the message as a Conform result under `result`, marked `unanswered` so that no loader runs
 * again (the root's `shouldRevalidate`, the dialogs' `dialogShouldRevalidate` and the pages'
 * `keepListBehindDialogs`). A status cannot say it: single fetch drops a client action's status.
 */
export async function keepFormWhenUnanswered({ request, serverAction }: ClientActionFunctionArgs) {
  const sent = await request.clone().formData();
  try {
    return await serverAction();
  } catch (error) {
    const answered = error instanceof Response || isRouteErrorResponse(error);
    if (answered || (error instanceof DOMException && error.name === "AbortError")) throw error;
    const initialValue = Object.fromEntries([...sent].filter(([, value]) => typeof value === "string"));
    return {
      unanswered: true,
      result: { status: "error" as const, initialValue, error: { "": [UNANSWERED_MESSAGE] } },
    };
  }
}

/**
 * A money dialog's `shouldRevalidate`: its loader runs as Remix would run it (under single fetch
 * it is told `defaultShouldRevalidate: true`, after a refusal too, so the dialog shows the
 * balance of the moment with the refusal), except after a post that got no answer.
 */
export const dialogShouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  !actionResult?.unanswered && defaultShouldRevalidate;
