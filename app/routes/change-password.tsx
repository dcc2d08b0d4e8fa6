import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FieldError, FormError } from "~/components/dialog";
import { changeOwnPassword } from "~/models/password.server";
import { ChangePasswordSchema } from "~/schemas/auth";
import { getCurrent, requireUser } from "~/utils/auth.server";
import { PRODUCT_NAME } from "~/utils/brand";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: `Change Your Password · ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { allowPasswordChange: true });
  // Only users who must change their password see this page; others change it in Settings.
  if (user.mustChangePassword !== 1) throw redirect("/");
  return { constraint: getZodConstraint(ChangePasswordSchema), email: user.email };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { allowPasswordChange: true });
  if (user.mustChangePassword !== 1) throw redirect("/");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const current = await getCurrent(request);
  const result = await changeOwnPassword(user, submission.value, current?.session.sid ?? null);
  if (!result.ok) {
    return data({ result: submission.reply({ fieldErrors: result.fieldErrors, hideFields: ["currentPassword"] }) }, { status: 400 });
  }
  return redirectWithToast("/", { title: "Password changed successfully" });
}

export default function ChangePasswordPage() {
  const { constraint, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({ lastResult: actionData?.result, constraint, shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" });
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card w-full max-w-md p-6">
        <h1 className="text-xl font-bold">Change Your Password</h1>
        <p className="page-subtitle mt-1">
          You are signed in as {email} with a temporary password. Choose a new password of at least 8 characters to continue.
        </p>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormError errors={form.errors} id={form.errorId} />
          <PasswordField label="Current password" meta={fields.currentPassword} autoComplete="current-password" />
          <PasswordField label="New password" meta={fields.newPassword} autoComplete="new-password" />
          <PasswordField label="Confirm new password" meta={fields.confirmPassword} autoComplete="new-password" />
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "Changing password..." : "Change Password"}
          </button>
        </Form>
        <Form method="post" action="/logout" reloadDocument className="mt-4 text-center">
          <button type="submit" className="text-sm text-slate-500 underline">
            Log out
          </button>
        </Form>
      </div>
    </main>
  );
}

type FieldMeta = Parameters<typeof getInputProps>[0];

function PasswordField({ label, meta, autoComplete }: { label: string; meta: FieldMeta; autoComplete: string }) {
  return (
    <div>
      <label className="label" htmlFor={meta.id}>
        {label}
      </label>
      <input className="input" {...getInputProps(meta, { type: "password" })} autoComplete={autoComplete} />
      <FieldError errors={meta.errors} id={meta.errorId} />
    </div>
  );
}
