import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmFooter } from "~/components/forms";
import { nameWithEmail } from "~/components/settings/security-cards";
import { Dialog, FormError } from "~/components/dialog";
import { resetUserPassword } from "~/models/admin-users.server";
import { requireManagedUser } from "~/presenters/security.server";
import { requireCapability } from "~/rules/capabilities.server";
import { temporaryPasswordCookie } from "~/utils/temporary-password-cookie.server";

export const meta: MetaFunction = () => [{ title: "Reset Password · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireManagedUser(request, params.id, "user.manage");
  return { user: { displayName: user.displayName, email: user.email } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  const result = await resetUserPassword(admin, params.id ?? "");
  if (!result.ok) return data({ error: `Failed to reset password: ${result.message}` }, { status: result.status });
  // Post, then redirect: reloading the page that shows the password never resets it again.
  const { id, email } = result.user;
  const cookie = await temporaryPasswordCookie({ userId: id, email, temporaryPassword: result.temporaryPassword });
  return redirect(`/settings/users/${id}/temporary-password`, { headers: { "Set-Cookie": cookie } });
}

export default function ResetPasswordDialog() {
  const { user } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <Dialog
      title="Reset Password"
      description={`Give ${nameWithEmail(user)} a new temporary password?`}
      closeTo="/settings"
      size="sm"
    >
      <Form method="post" preventScrollReset className="space-y-4">
        <FormError errors={actionData?.error ? [actionData.error] : null} />
        <p className="text-sm">Their current password stops working and they are signed out of every device.</p>
        <ConfirmFooter
          cancelTo="/settings"
          confirmLabel="Reset Password"
          pendingLabel="Resetting..."
          variant="primary"
        />
      </Form>
    </Dialog>
  );
}
