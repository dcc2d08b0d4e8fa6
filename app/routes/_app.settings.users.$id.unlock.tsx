import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { unlockUser } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "user.manage");
  return redirect("/settings");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  const result = await unlockUser(admin, params.id ?? "");
  if (!result.ok)
    return redirectWithToast("/settings", {
      title: "Failed to unlock user",
      description: result.message,
      variant: "destructive",
    });
  return redirectWithToast("/settings", {
    title: "Sign-in unlocked",
    description: `${result.user.email} can try signing in again.`,
  });
}
