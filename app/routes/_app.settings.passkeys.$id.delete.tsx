import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmFooter } from "~/components/forms";
import { Dialog, FieldError } from "~/components/dialog";
import { deletePasskey, getPasskey } from "~/models/passkey.server";
import { requireUser } from "~/utils/auth.server";
import { parseId } from "~/utils/params";
import { invariantResponse } from "~/utils/http.server";
import { logEvent } from "~/utils/logger.server";
import { confirmRecentAuth, isRecentlyAuthenticated } from "~/models/reauth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete Passkey · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const passkey = await getPasskey(user.id, parseId(params.id) ?? 0);
  invariantResponse(passkey, "Passkey not found");
  return { passkey, needsPassword: !(await isRecentlyAuthenticated(request)) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const reauth = await confirmRecentAuth(request, user, (await request.formData()).get("password"));
  if (!reauth.ok) return data({ passwordError: reauth.message }, { status: reauth.status });
  logEvent("info", { event: "factor.passkey.removed", userId: user.id, passkeyId: params.id });
  if (!(await deletePasskey(user.id, parseId(params.id) ?? 0))) {
    return redirectWithToast("/settings", { title: "Failed to delete passkey", description: "Passkey not found", variant: "destructive" });
  }
  return redirectWithToast("/settings", { title: "Passkey deleted successfully" });
}

export default function DeletePasskeyDialog() {
  const { passkey, needsPassword } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const passwordError = actionData && "passwordError" in actionData ? actionData.passwordError : null;
  return (
    <Dialog title="Delete Passkey" description={`Delete the passkey "${passkey.deviceName}"?`} closeTo="/settings" size="sm">
      <Form method="post" preventScrollReset className="space-y-4">
        <p className="text-sm">This cannot be undone. That device can no longer sign you in with this passkey.</p>
        {needsPassword || passwordError ? (
          <div>
            <label className="label" htmlFor="passkey-delete-password">
              Current password
            </label>
            <input id="passkey-delete-password" name="password" type="password" className="input" autoComplete="current-password" required />
            <FieldError errors={passwordError ? [passwordError] : null} id="passkey-delete-password-error" />
          </div>
        ) : null}
        <ConfirmFooter cancelTo="/settings" confirmLabel="Delete Passkey" pendingLabel="Deleting..." />
      </Form>
    </Dialog>
  );
}
