import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { CopyButton } from "~/components/copy-button";
import { Dialog, FieldError } from "~/components/dialog";
import { confirmTotpEnrolment, getTotpEnrolment } from "~/models/totp.server";
import { requireUser } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Set Up Two-factor · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const enrolment = await getTotpEnrolment(user);
  if (!enrolment) throw redirect("/settings");
  return { secret: enrolment.secret, qrDataUrl: enrolment.qrDataUrl };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const token = String((await request.formData()).get("token") ?? "").replace(/\D/g, "");
  const result = await confirmTotpEnrolment(user, token);
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  return redirectWithToast("/settings", {
    title: "Two-factor authentication enabled",
    description: "Signing in now also asks for a code from your authenticator app.",
  });
}

export default function TwoFactorSetupDialog() {
  const { secret, qrDataUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [code, setCode] = useState("");
  const grouped = secret.match(/.{1,4}/g)?.join(" ") ?? secret;
  return (
    <Dialog title="Set Up Two-factor Authentication" description="Scan the QR code with an authenticator app, then enter the code it shows." closeTo="/settings">
      <div className="space-y-4">
        <img src={qrDataUrl} alt="QR code for your authenticator app" width={200} height={200} className="mx-auto rounded bg-white p-2" />
        <div>
          <p className="label" id="totp-key-label">
            Or enter this key
          </p>
          <div className="flex items-center gap-2">
            <code aria-labelledby="totp-key-label" data-testid="totp-secret" data-secret={secret} className="block min-w-0 flex-1 select-all break-all rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-800">
              {grouped}
            </code>
            <CopyButton text={secret} label="Copy key to clipboard" />
          </div>
        </div>
        <Form method="post" preventScrollReset className="space-y-4">
          <div>
            <label className="label" htmlFor="totp-confirm">
              6-digit code
            </label>
            <input
              id="totp-confirm"
              name="token"
              className="input font-mono tracking-widest"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
              aria-describedby={actionData?.error ? "totp-confirm-error" : undefined}
            />
            <FieldError errors={actionData?.error ? [actionData.error] : null} id="totp-confirm-error" />
          </div>
          <div className="flex justify-end gap-2">
            <Link to="/settings" preventScrollReset className="btn-outline">
              Cancel
            </Link>
            <button type="submit" className="btn-primary" disabled={busy}>
              Turn On
            </button>
          </div>
        </Form>
      </div>
    </Dialog>
  );
}
