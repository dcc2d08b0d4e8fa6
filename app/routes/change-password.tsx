import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ChangePasswordForm } from "~/components/change-password-form";
import { changeOwnPassword } from "~/models/password.server";
import { ChangePasswordSchema } from "~/schemas/auth";
import { getCurrent, requireUser } from "~/utils/auth.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { PRODUCT_NAME } from "~/utils/brand";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

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
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  const current = await getCurrent(request);
  const result = await changeOwnPassword(user, submission.value, current?.session.sid ?? null);
  if (!result.ok) return replyRefused(submission, result, { hideFields: ["currentPassword"] });
  return redirectWithToast("/", { title: "Password changed successfully" });
}

export default function ChangePasswordPage() {
  const { constraint, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card w-full max-w-md p-6">
        <h1 className="text-xl font-bold">Change Your Password</h1>
        <p className="page-subtitle mt-1">
          You are signed in as {email} with a temporary password. Choose a new password of at least 8 characters to
          continue.
        </p>
        <div className="mt-6">
          <ChangePasswordForm lastResult={actionData?.result} constraint={constraint} />
        </div>
        <Form method="post" action="/logout" reloadDocument className="mt-4 text-center">
          <button type="submit" className="text-sm text-slate-600 underline dark:text-slate-300">
            Log out
          </button>
        </Form>
      </div>
    </main>
  );
}
