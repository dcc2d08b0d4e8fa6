import { useFormAction, useNavigation } from "@remix-run/react";

/**
 * True while a form of this route (or the one posting to `formAction`) is on its way: the
 * submit button says so ("Saving...") and is disabled, so a double tap does not post twice.
 * Without JavaScript there is no pending state; the browser's own progress shows.
 *
 * `formAction`: the action the form posts to (defaults to the current route's).
 * `formMethod`: only submissions with this method count (default: any non-GET).
 * `state`: "submitting" counts only the post itself, "non-idle" (the default) also the redirect
 * and the reload that follow it, so the button stays busy until the new page is in.
 */
export function useIsPending({
  formAction,
  formMethod,
  state = "non-idle",
}: {
  formAction?: string;
  formMethod?: "POST" | "GET" | "PUT" | "PATCH" | "DELETE";
  state?: "submitting" | "non-idle";
} = {}) {
  const ownAction = useFormAction();
  const navigation = useNavigation();
  if (navigation.state === "idle") return false;
  if (state === "submitting" && navigation.state !== "submitting") return false;
  if (!navigation.formMethod || navigation.formMethod === "GET") return formMethod === "GET" && matches();
  if (formMethod && navigation.formMethod !== formMethod) return false;
  return matches();

  function matches() {
    const target = formAction ?? ownAction;
    return navigation.formAction === target || stripIndex(navigation.formAction) === stripIndex(target);
  }
}

const stripIndex = (action: string | undefined) => (action ?? "").replace(/\?index(&|$)/, "?").replace(/\?$/, "");
