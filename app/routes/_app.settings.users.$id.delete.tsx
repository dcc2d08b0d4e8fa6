import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { ConfirmFooter } from "~/components/forms";
import { nameWithEmail } from "~/components/settings/security-cards";
import { Dialog } from "~/components/dialog";
import { deleteUserByAdmin, getUserRow } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete User · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  if (params.id?.toLowerCase() === admin.id) throw redirect("/settings");
  const user = await getUserRow(admin, params.id ?? "");
  invariantResponse(user && user.status !== "deleted", "User not found");
  return { user: { displayName: user.displayName, email: user.email } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  const result = await deleteUserByAdmin(admin, params.id ?? "");
  if (!result.ok)
    return redirectWithToast("/settings", {
      title: "Failed to delete user",
      description: result.message,
      variant: "destructive",
    });
  return redirectWithToast("/settings", {
    title: "User deleted successfully",
    description: `${result.user.email} can no longer sign in.`,
  });
}

export default function DeleteUserDialog() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <Dialog title="Delete User" description={`Delete ${nameWithEmail(user)}?`} closeTo="/settings" size="sm">
      <Form method="post" preventScrollReset className="space-y-4">
        <p className="text-sm">
          This cannot be undone. They are signed out at once and can no longer sign in; their records stay.
        </p>
        <ConfirmFooter cancelTo="/settings" confirmLabel="Delete User" pendingLabel="Deleting..." />
      </Form>
    </Dialog>
  );
}
