import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { ConfirmFooter } from "~/components/forms";
import { nameWithEmail } from "~/components/settings/security-cards";
import { Dialog } from "~/components/dialog";
import { deleteUserByAdmin } from "~/models/admin-users.server";
import { requireManagedUser } from "~/presenters/security.server";
import { requireCapability } from "~/rules/capabilities.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete User · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireManagedUser(request, params.id, "user.manage");
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
