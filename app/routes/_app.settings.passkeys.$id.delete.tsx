import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmFooter } from "~/components/forms";
import { RecentPasswordField } from "~/components/forms/recent-password-field";
import { Dialog } from "~/components/dialog";
import { deletePasskey, getPasskey } from "~/models/passkey.server";
import { PASSWORD_CONFIRM_FORM_CONSTRAINT, PasswordConfirmFormSchema } from "~/schemas/forms";
import { requireUser } from "~/utils/auth.server";
import { replyRefused } from "~/utils/form-reply.server";
import { parseId } from "~/utils/params";
import { invariantResponse, readForm } from "~/utils/http.server";
import { logEvent } from "~/utils/logger.server";
import { confirmRecentAuth, isRecentlyAuthenticated } from "~/models/reauth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete Passkey · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const passkey = await getPasskey(user.id, parseId(params.id) ?? 0);
  invariantResponse(passkey, "Passkey not found");
  return {
    passkey,
    needsPassword: !(await isRecentlyAuthenticated(request)),
    constraint: PASSWORD_CONFIRM_FORM_CONSTRAINT,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: PasswordConfirmFormSchema, disableAutoCoercion: true });
  const reauth = await confirmRecentAuth(request, user, formData.get("password"));
  if (!reauth.ok) return replyRefused(submission, reauth, { field: "password", hideFields: ["password"] });
  logEvent("info", { event: "factor.passkey.removed", userId: user.id, passkeyId: params.id });
  if (!(await deletePasskey(user.id, parseId(params.id) ?? 0))) {
    return redirectWithToast("/settings", {
      title: "Failed to delete passkey",
      description: "Passkey not found",
      variant: "destructive",
    });
  }
  return redirectWithToast("/settings", { title: "Passkey deleted successfully" });
}

export default function DeletePasskeyDialog() {
  const { passkey, needsPassword, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({ id: "passkey-delete", lastResult: actionData?.result, constraint });
  return (
    <Dialog
      title="Delete Passkey"
      description={`Delete the passkey "${passkey.deviceName}"?`}
      closeTo="/settings"
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} preventScrollReset className="space-y-4">
        <p className="text-sm">This cannot be undone. That device can no longer sign you in with this passkey.</p>
        <RecentPasswordField meta={fields.password} needed={needsPassword} />
        <ConfirmFooter cancelTo="/settings" confirmLabel="Delete Passkey" pendingLabel="Deleting..." />
      </Form>
    </Dialog>
  );
}
