import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { unlockUser } from "~/models/admin-users.server";
import { requireRole } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["admin"]);
  return redirect("/settings");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, ["admin"]);
  const result = await unlockUser(admin, params.id ?? "");
  if (!result.ok) return redirectWithToast("/settings", { title: "Failed to unlock user", description: result.message, variant: "destructive" });
  return redirectWithToast("/settings", { title: "Sign-in unlocked", description: `${result.user.email} can try signing in again.` });
}
