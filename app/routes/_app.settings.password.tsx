import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Dialog, FieldError, FormError } from "~/components/dialog";
import { useHydrated } from "~/components/settings/security-cards";
import { changeOwnPassword } from "~/models/password.server";
import { ChangePasswordSchema } from "~/schemas/auth";
import { getCurrent, requireUser } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Change Password · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return { constraint: getZodConstraint(ChangePasswordSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: ChangePasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["currentPassword"] }) }, { status: 400 });
  const current = await getCurrent(request);
  const result = await changeOwnPassword(user, submission.value, current?.session.sid ?? null);
  if (!result.ok) {
    return data(
      { result: submission.reply({ formErrors: ["Failed to change password"], fieldErrors: result.fieldErrors, hideFields: ["currentPassword"] }) },
      { status: 400 },
    );
  }
  return redirectWithToast("/settings", { title: "Password changed successfully", description: "Your other devices have been signed out." });
}

export default function ChangePasswordDialog() {
  const { constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({ lastResult: actionData?.result, constraint, shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" });
  const [filled, setFilled] = useState({ current: false, next: false });
  const busy = navigation.state === "submitting";
  return (
    <Dialog title="Change Password" description="Choose a new password of at least 8 characters." closeTo="/settings">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <FormError errors={form.errors} id={form.errorId} />
        <div>
          <label className="label" htmlFor={fields.currentPassword.id}>
            Current password
          </label>
          <input
            className="input"
            {...getInputProps(fields.currentPassword, { type: "password" })}
            autoComplete="current-password"
            onInput={(e) => setFilled((f) => ({ ...f, current: e.currentTarget.value.length > 0 }))}
          />
          <FieldError errors={fields.currentPassword.errors} id={fields.currentPassword.errorId} />
        </div>
        <div>
          <label className="label" htmlFor={fields.newPassword.id}>
            New password
          </label>
          <input
            className="input"
            {...getInputProps(fields.newPassword, { type: "password" })}
            autoComplete="new-password"
            onInput={(e) => setFilled((f) => ({ ...f, next: e.currentTarget.value.length > 0 }))}
          />
          <FieldError errors={fields.newPassword.errors} id={fields.newPassword.errorId} />
        </div>
        <div>
          <label className="label" htmlFor={fields.confirmPassword.id}>
            Confirm new password
          </label>
          <input className="input" {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" />
          <FieldError errors={fields.confirmPassword.errors} id={fields.confirmPassword.errorId} />
        </div>
        <SubmitButton busy={busy} ready={filled.current && filled.next} />
      </Form>
    </Dialog>
  );
}

function SubmitButton({ busy, ready }: { busy: boolean; ready: boolean }) {
  // Disabled until current and new are filled (spec section 5); before hydration it stays
  // enabled so the form works without JavaScript.
  const hydrated = useHydrated();
  return (
    <button type="submit" className="btn-primary w-full" disabled={busy || (hydrated && !ready)}>
      {busy ? "Changing..." : "Change Password"}
    </button>
  );
}
