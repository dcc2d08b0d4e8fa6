import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { ConfirmFooter } from "~/components/forms";
import { Dialog, FieldError } from "~/components/dialog";
import { disableTotp } from "~/models/totp.server";
import { requireUser } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Turn Off Two-factor · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!user.totpEnabled) throw redirect("/settings");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const result = await disableTotp(user, (await request.formData()).get("password"));
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  return redirectWithToast("/settings", { title: "Two-factor authentication turned off" });
}

export default function DisableTwoFactorDialog() {
  const actionData = useActionData<typeof action>();
  return (
    <Dialog title="Turn Off Two-factor Authentication" description="Enter your password to confirm." closeTo="/settings" size="sm">
      <Form method="post" preventScrollReset className="space-y-4">
        <div>
          <label className="label" htmlFor="disable-totp-password">
            Password
          </label>
          <input
            id="disable-totp-password"
            name="password"
            type="password"
            className="input"
            autoComplete="current-password"
            required
            aria-describedby={actionData?.error ? "disable-totp-error" : undefined}
          />
          <FieldError errors={actionData?.error ? [actionData.error] : null} id="disable-totp-error" />
        </div>
        <ConfirmFooter cancelTo="/settings" confirmLabel="Turn Off" pendingLabel="Turning off..." />
      </Form>
    </Dialog>
  );
}
