import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmFooter, InputField } from "~/components/forms";
import { Dialog } from "~/components/dialog";
import { disableTotp } from "~/models/totp.server";
import { PASSWORD_CONFIRM_FORM_CONSTRAINT, PasswordConfirmFormSchema } from "~/schemas/forms";
import { requireUser } from "~/utils/auth.server";
import { replyRefused } from "~/utils/form-reply.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Turn Off Two-factor · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!user.totpEnabled) throw redirect("/settings");
  return { constraint: PASSWORD_CONFIRM_FORM_CONSTRAINT };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: PasswordConfirmFormSchema, disableAutoCoercion: true });
  const result = await disableTotp(user, formData.get("password"));
  if (!result.ok) return replyRefused(submission, result, { field: "password", hideFields: ["password"] });
  return redirectWithToast("/settings", { title: "Two-factor authentication turned off" });
}

export default function DisableTwoFactorDialog() {
  const { constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({ id: "disable-totp", lastResult: actionData?.result, constraint });
  return (
    <Dialog
      title="Turn Off Two-factor Authentication"
      description="Enter your password to confirm."
      closeTo="/settings"
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} preventScrollReset className="space-y-4">
        <InputField meta={fields.password} label="Password" type="password" autoComplete="current-password" />
        <ConfirmFooter cancelTo="/settings" confirmLabel="Turn Off" pendingLabel="Turning off..." />
      </Form>
    </Dialog>
  );
}
