import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { setUserStatus } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "user.manage");
  return redirect("/settings");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  const status = (await readForm(request)).get("status");
  const result = await setUserStatus(admin, params.id ?? "", status);
  if (!result.ok) {
    return redirectWithToast("/settings", {
      title: "Failed to update user status",
      description: result.message,
      variant: "destructive",
    });
  }
  const frozen = result.user.status === "frozen";
  return redirectWithToast("/settings", {
    title: frozen ? "User frozen" : "User unfrozen",
    description: frozen
      ? `${result.user.email} has been signed out and cannot sign in.`
      : `${result.user.email} can sign in again.`,
  });
}
