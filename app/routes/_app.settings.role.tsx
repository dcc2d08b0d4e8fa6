import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { canSwitchRole, switchOwnRole } from "~/models/admin-users.server";
import { safeRedirect } from "~/utils/redirect";
import { requireUser } from "~/utils/auth.server";
import { redirectWithToast, toastHeader } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/settings");
}

// With JavaScript the switcher posts through a fetcher (js=1) and reloads the page after 1 s
// (spec section 4); without it the form redirects back with the toast. A refusal answers the
// fetcher with 200: with single fetch a 4xx action skips the loaders' revalidation, so the
// root would never read the flash toast.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!canSwitchRole(user)) throw new Response("You do not have permission to do this", { status: 403 });
  const form = await readForm(request);
  const role = form.get("role");
  const back = safeRedirect(form.get("redirectTo"), "/");
  const viaFetcher = form.get("js") === "1";
  if (role === user.role) {
    const toast = { title: "Role unchanged", description: "Pick a different role to switch." };
    return viaFetcher
      ? data({ ok: false }, { headers: { "Set-Cookie": await toastHeader(toast) } })
      : redirectWithToast(back, toast);
  }
  const result = await switchOwnRole(user, user.id, role);
  if (!result.ok) {
    const toast = { title: "Error", description: result.message, variant: "destructive" as const };
    if (result.status === 403) throw new Response(result.message, { status: 403 });
    if (viaFetcher) {
      return data({ ok: false, message: result.message }, { headers: { "Set-Cookie": await toastHeader(toast) } });
    }
    return redirectWithToast(back, toast);
  }
  const toast = { title: "Role Updated", description: "Your role has been changed. Refreshing..." };
  if (viaFetcher) return data({ ok: true }, { headers: { "Set-Cookie": await toastHeader(toast) } });
  // The page the switch was made from may not be open to the new role: go home.
  return redirectWithToast(result.user.role === "admin" ? back : "/", toast);
}
