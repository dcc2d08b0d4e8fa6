import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmFooter, FormErrors, SelectField } from "~/components/forms";
import { RecentPasswordField } from "~/components/forms/recent-password-field";
import { Dialog } from "~/components/dialog";
import { nameWithEmail } from "~/components/settings/security-cards";
import { changeUserRole } from "~/models/admin-users.server";
import { confirmRecentAuth, isRecentlyAuthenticated } from "~/models/reauth.server";
import { ChangeRoleSchema, ROLE_LABELS } from "~/schemas/users";
import { requireManagedUser } from "~/presenters/security.server";
import { requireCapability } from "~/rules/capabilities.server";
import { replyRefused } from "~/utils/form-reply.server";
import { readForm } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Change Role · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireManagedUser(request, params.id, "user.role");
  return {
    user: { displayName: user.displayName, email: user.email, role: user.role, status: user.status },
    needsPassword: !(await isRecentlyAuthenticated(request)),
    constraint: getZodConstraint(ChangeRoleSchema),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.role");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ChangeRoleSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const reauth = await confirmRecentAuth(request, admin, submission.value.password);
  if (!reauth.ok) return replyRefused(submission, reauth, { field: "password", hideFields: ["password"] });
  const result = await changeUserRole(admin, params.id ?? "", submission.value.role);
  if (!result.ok) return replyRefused(submission, result, { hideFields: ["password"] });
  return redirectWithToast("/settings", {
    title: "Role changed",
    description: `${result.user.email} now has the ${ROLE_LABELS[result.user.role]} role.`,
  });
}

export default function ChangeRoleDialog() {
  const { user, needsPassword, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "change-role",
    lastResult: actionData?.result,
    constraint,
    defaultValue: { role: user.role, password: "" },
  });
  return (
    <Dialog
      title="Change Role"
      description={`Change the role of ${nameWithEmail(user)}?`}
      closeTo="/settings"
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} preventScrollReset className="space-y-4">
        <FormErrors errors={form.errors} id={form.errorId} />
        {user.status === "active" ? (
          <>
            <p className="text-sm">
              Current role: {ROLE_LABELS[user.role]}. An admin manages users, settings and every record; a manager
              handles agents, clients, invoices and payments; staff record their own deliveries. The change applies at
              their next page.
            </p>
            <SelectField meta={fields.role} label="New role">
              <option value="staff">Staff</option>
              <option value="manager">Manager</option>
              <option value="admin">Admin</option>
            </SelectField>
            <RecentPasswordField
              meta={fields.password}
              needed={needsPassword}
              label="Your current password"
              description="Changing a role asks for your password unless you signed in within the last 5 minutes."
            />
            <ConfirmFooter
              cancelTo="/settings"
              confirmLabel="Change Role"
              pendingLabel="Changing..."
              variant="primary"
            />
          </>
        ) : (
          <p className="text-sm">Only an active user's role can be changed: unfreeze them first.</p>
        )}
      </Form>
    </Dialog>
  );
}
