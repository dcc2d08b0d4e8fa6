import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Dialog, FormError } from "~/components/dialog";
import { InputField, SelectField } from "~/components/forms";
import { TemporaryPasswordDialogBody } from "~/components/settings/security-cards";
import { createUserByAdmin } from "~/models/admin-users.server";
import { CreateUserSchema, MISSING_FIELDS } from "~/schemas/users";
import { requireCapability } from "~/rules/capabilities.server";
import { replyRefused } from "~/utils/form-reply.server";
import { readForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Add User · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "user.manage");
  return { constraint: getZodConstraint(CreateUserSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "user.manage");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: CreateUserSchema });
  if (submission.status !== "success") {
    const missing = !formData.get("email") || !formData.get("role");
    return data(
      { result: submission.reply(missing ? { formErrors: [MISSING_FIELDS] } : undefined), created: null },
      { status: 400 },
    );
  }
  const result = await createUserByAdmin(user, submission.value);
  if (!result.ok) {
    return replyRefused(submission, result, {
      formMessage: `Failed to create user: ${result.message}`,
      always: true,
      extra: { created: null },
    });
  }
  return { result: null, created: { email: result.user.email, temporaryPassword: result.temporaryPassword } };
}

export default function NewUserDialog() {
  const { constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint,
  });
  if (actionData?.created) {
    return (
      <Dialog title="User Created" description="The account is ready." closeTo="/settings" dismissible={false}>
        <TemporaryPasswordDialogBody {...actionData.created} />
      </Dialog>
    );
  }
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <Dialog
      title="Add User"
      description="Create a staff or manager account with a temporary password."
      closeTo="/settings"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <FormError errors={form.errors} id={form.errorId} />
        <InputField meta={fields.email} label="Email *" type="email" autoComplete="off" />
        <SelectField meta={fields.role} label="Role *">
          <option value="">Select a role</option>
          <option value="staff">Staff</option>
          <option value="manager">Manager</option>
        </SelectField>
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField meta={fields.firstName} label="First name" autoComplete="off" />
          <InputField meta={fields.lastName} label="Last name" autoComplete="off" />
        </div>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Creating..." : "Create User"}
        </button>
      </Form>
    </Dialog>
  );
}
