import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { CopyButton } from "~/components/copy-button";
import { Dialog } from "~/components/dialog";
import { ConfirmFooter, OneTimeCodeField } from "~/components/forms";
import { RecentPasswordField } from "~/components/forms/recent-password-field";
import { keepCodesToShow } from "~/models/recovery-codes.server";
import { confirmTotpEnrolment, getTotpEnrolment, startTotpEnrolment } from "~/models/totp.server";
import { TwoFactorSetupFormSchema } from "~/schemas/forms";
import { requireUser } from "~/utils/auth.server";
import { replyRefused } from "~/utils/form-reply.server";
import { logEvent } from "~/utils/logger.server";
import { confirmRecentAuth, isRecentlyAuthenticated } from "~/models/reauth.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Set Up Two-factor · Management" }];

// GET only reads: the secret is made by the explicit "Set up" post, after the password (or a
// sign-in within five minutes) confirms it is the owner at the keyboard.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.totpEnabled) throw redirect("/settings");
  const recent = await isRecentlyAuthenticated(request);
  // A set-up started earlier is shown only to a session that confirmed itself recently.
  const enrolment = recent ? await getTotpEnrolment(user) : null;
  return {
    needsPassword: !recent,
    enrolment: enrolment && { secret: enrolment.secret, qrDataUrl: enrolment.qrDataUrl },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (user.totpEnabled) throw redirect("/settings");
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: TwoFactorSetupFormSchema, disableAutoCoercion: true });
  const reauth = await confirmRecentAuth(request, user, form.get("password"));
  if (!reauth.ok) return replyRefused(submission, reauth, { field: "password", hideFields: ["password"] });
  if (form.get("intent") === "setup") {
    await startTotpEnrolment(user);
    throw redirect("/settings/two-factor");
  }
  const token = String(form.get("token") ?? "").replace(/\D/g, "");
  const result = await confirmTotpEnrolment(user, token);
  if (!result.ok) return replyRefused(submission, result, { field: "token", hideFields: ["password"] });
  logEvent("info", { event: "factor.totp.enabled", userId: user.id });
  // The recovery codes are shown once, on the page this redirects to (decision 0401).
  await keepCodesToShow(request, result.recoveryCodes);
  return redirectWithToast("/settings/two-factor/recovery-codes", {
    title: "Two-factor authentication enabled",
    description: "Signing in now also asks for a code from your authenticator app.",
  });
}

export default function TwoFactorSetupDialog() {
  const { enrolment, needsPassword } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [code, setCode] = useState("");
  const [form, fields] = useForm({ id: "totp", lastResult: actionData?.result });
  if (!enrolment) {
    return (
      <Dialog
        title="Set Up Two-factor Authentication"
        description="Signing in will also ask for a code from an authenticator app on your phone."
        closeTo="/settings"
      >
        <Form method="post" {...getFormProps(form)} preventScrollReset className="space-y-4">
          <input type="hidden" name="intent" value="setup" />
          {needsPassword ? <RecentPasswordField meta={fields.password} needed required /> : null}
          <ConfirmFooter cancelTo="/settings" confirmLabel="Set up" pendingLabel="Setting up..." variant="primary" />
        </Form>
      </Dialog>
    );
  }
  const { secret, qrDataUrl } = enrolment;
  const grouped = secret.match(/.{1,4}/g)?.join(" ") ?? secret;
  return (
    <Dialog
      title="Set Up Two-factor Authentication"
      description="Scan the QR code with an authenticator app, then enter the code it shows."
      closeTo="/settings"
    >
      <div className="space-y-4">
        <img
          src={qrDataUrl}
          alt="QR code for your authenticator app"
          width={200}
          height={200}
          className="mx-auto rounded bg-white p-2"
        />
        <div>
          <p className="label" id="totp-key-label">
            Or enter this key
          </p>
          <div className="flex items-center gap-2">
            <code
              aria-labelledby="totp-key-label"
              data-testid="totp-secret"
              data-secret={secret}
              className="block min-w-0 flex-1 select-all break-all rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-800"
            >
              {grouped}
            </code>
            <CopyButton text={secret} label="Copy key to clipboard" />
          </div>
        </div>
        <Form method="post" {...getFormProps(form)} preventScrollReset className="space-y-4">
          <RecentPasswordField meta={fields.password} needed={needsPassword} required />
          <OneTimeCodeField label="6-digit code" meta={fields.token} code={[code, setCode]} />
          <ConfirmFooter cancelTo="/settings" confirmLabel="Turn On" pendingLabel="Turning on..." variant="primary" />
        </Form>
      </div>
    </Dialog>
  );
}
