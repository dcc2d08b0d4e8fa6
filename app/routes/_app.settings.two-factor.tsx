import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { CopyButton } from "~/components/copy-button";
import { Dialog, FieldError } from "~/components/dialog";
import { confirmTotpEnrolment, getTotpEnrolment, startTotpEnrolment } from "~/models/totp.server";
import { requireUser } from "~/utils/auth.server";
import { logEvent } from "~/utils/logger.server";
import { confirmRecentAuth, isRecentlyAuthenticated } from "~/models/reauth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Set Up Two-factor · Management" }];

// GET only reads: the secret is made by the explicit "Set up" post, after the password (or a
// sign-in within five minutes) confirms it is the owner at the keyboard.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.totpEnabled) throw redirect("/settings");
  const recent = await isRecentlyAuthenticated(request);
  // A set-up started earlier is shown only to a session that confirmed itself recently.
  const enrolment = recent ? await getTotpEnrolment(user) : null;
  return { needsPassword: !recent, enrolment: enrolment && { secret: enrolment.secret, qrDataUrl: enrolment.qrDataUrl } };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (user.totpEnabled) throw redirect("/settings");
  const form = await request.formData();
  const reauth = await confirmRecentAuth(request, user, form.get("password"));
  if (!reauth.ok) return data({ error: null, passwordError: reauth.message }, { status: reauth.status });
  if (form.get("intent") === "setup") {
    await startTotpEnrolment(user);
    throw redirect("/settings/two-factor");
  }
  const token = String(form.get("token") ?? "").replace(/\D/g, "");
  const result = await confirmTotpEnrolment(user, token);
  if (!result.ok) return data({ error: result.message, passwordError: null }, { status: result.status });
  logEvent("info", { event: "factor.totp.enabled", userId: user.id });
  return redirectWithToast("/settings", {
    title: "Two-factor authentication enabled",
    description: "Signing in now also asks for a code from your authenticator app.",
  });
}

function PasswordField({ error }: { error?: string | null }) {
  return (
    <div>
      <label className="label" htmlFor="totp-password">
        Current password
      </label>
      <input
        id="totp-password"
        name="password"
        type="password"
        className="input"
        autoComplete="current-password"
        required
        aria-describedby={error ? "totp-password-error" : undefined}
      />
      <FieldError errors={error ? [error] : null} id="totp-password-error" />
    </div>
  );
}

export default function TwoFactorSetupDialog() {
  const { enrolment, needsPassword } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [code, setCode] = useState("");
  if (!enrolment) {
    return (
      <Dialog title="Set Up Two-factor Authentication" description="Signing in will also ask for a code from an authenticator app on your phone." closeTo="/settings">
        <Form method="post" preventScrollReset className="space-y-4">
          <input type="hidden" name="intent" value="setup" />
          {needsPassword ? <PasswordField error={actionData?.passwordError} /> : null}
          <div className="flex justify-end gap-2">
            <Link to="/settings" preventScrollReset className="btn-outline">
              Cancel
            </Link>
            <button type="submit" className="btn-primary" disabled={busy}>
              Set up
            </button>
          </div>
        </Form>
      </Dialog>
    );
  }
  const { secret, qrDataUrl } = enrolment;
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
          {needsPassword || actionData?.passwordError ? <PasswordField error={actionData?.passwordError} /> : null}
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
