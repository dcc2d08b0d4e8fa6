import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { setUserStatus } from "~/models/admin-users.server";
import { requireRole } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["admin"]);
  return redirect("/settings");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, ["admin"]);
  const status = (await request.formData()).get("status");
  const result = await setUserStatus(admin, params.id ?? "", status);
  if (!result.ok) {
    return redirectWithToast("/settings", { title: "Failed to update user status", description: result.message, variant: "destructive" });
  }
  const frozen = result.user.status === "frozen";
  return redirectWithToast("/settings", {
    title: frozen ? "User frozen" : "User unfrozen",
    description: frozen ? `${result.user.email} has been signed out and cannot sign in.` : `${result.user.email} can sign in again.`,
  });
}
