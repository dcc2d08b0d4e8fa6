import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { updateSettings } from "~/models/settings.server";
import { requireRole } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["admin"]);
  return redirect("/settings");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, ["admin"]);
  const form = Object.fromEntries(await request.formData());
  const result = await updateSettings(form, user.id);
  if (!result.ok) {
    return redirectWithToast("/settings", { title: "Failed to update settings", description: result.message, variant: "destructive" });
  }
  return redirectWithToast("/settings", { title: "Settings updated successfully" });
}
