import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ChangePasswordForm } from "~/components/change-password-form";
import { Dialog } from "~/components/dialog";
import { changeOwnPassword } from "~/models/password.server";
import { ChangePasswordSchema } from "~/schemas/auth";
import { getCurrent, requireUser } from "~/utils/auth.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Change Password · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return { constraint: getZodConstraint(ChangePasswordSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: ChangePasswordSchema });
  if (submission.status !== "success") return replyInvalid(submission, { hideFields: ["currentPassword"] });
  const current = await getCurrent(request);
  const result = await changeOwnPassword(user, submission.value, current?.session.sid ?? null);
  if (!result.ok) return replyRefused(submission, result, { hideFields: ["currentPassword"] });
  return redirectWithToast("/settings", {
    title: "Password changed successfully",
    description: "Your other devices have been signed out.",
  });
}

export default function ChangePasswordDialog() {
  const { constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <Dialog title="Change Password" description="Choose a new password of at least 8 characters." closeTo="/settings">
      <ChangePasswordForm lastResult={actionData?.result} constraint={constraint} />
    </Dialog>
  );
}
