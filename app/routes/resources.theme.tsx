import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { safeRedirect } from "~/utils/redirect";
import { plainCookie, THEME_COOKIE_MAX_AGE_SECONDS } from "~/utils/cookies.server";
import { readForm } from "~/utils/http.server";

// The theme is a cookie so the server renders it without a flash; no sign-in needed.
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const theme = form.get("theme") === "dark" ? "dark" : "light";
  const headers = { "Set-Cookie": plainCookie("theme", theme, THEME_COOKIE_MAX_AGE_SECONDS) };
  const redirectTo = form.get("redirectTo");
  // A fetcher wants data back; a plain form post (no JavaScript) goes back where it was.
  if (redirectTo) return redirect(safeRedirect(redirectTo), { headers });
  return data({ theme }, { headers });
}
