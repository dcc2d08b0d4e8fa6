import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeRedirect } from "~/utils/redirect";
import { plainCookie } from "~/utils/cookies.server";
import { SIDEBAR_COOKIE_MAX_AGE_SECONDS } from "~/utils/nav";
import { readForm } from "~/utils/http.server";

// Without JavaScript the sidebar toggle posts here; with it, the browser writes the cookie.
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const open = form.get("open") === "false" ? "false" : "true";
  return redirect(safeRedirect(form.get("redirectTo")), {
    headers: { "Set-Cookie": plainCookie("sidebar_state", open, SIDEBAR_COOKIE_MAX_AGE_SECONDS) },
  });
}
