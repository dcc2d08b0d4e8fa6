import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import { Dialog } from "~/components/dialog";
import { ErrorList, FormErrors, SubmitButton } from "~/components/forms";
import { useHydrated } from "~/hooks/use-hydrated";
import { useIsPending } from "~/hooks/use-is-pending";
import type { User } from "~/db.server";
import { PASSKEY_MESSAGES, verifyPasskeyRegistration } from "~/models/passkey.server";
import { PasskeyRegisterFormSchema } from "~/schemas/forms";
import { requireUser } from "~/utils/auth.server";
import { isRecentlyAuthenticated } from "~/models/reauth.server";
import { replyRefused } from "~/utils/form-reply.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Add Passkey · Management" }];

// The spec words two messages differently on the admin page and on everyone else's.
function messagesFor(user: User) {
  return user.role === "admin"
    ? { deviceName: PASSKEY_MESSAGES.deviceName, verifyFailed: PASSKEY_MESSAGES.registrationFailed }
    : { deviceName: "Please enter a device name", verifyFailed: "Failed to verify passkey" };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { messages: messagesFor(user), needsPassword: !(await isRecentlyAuthenticated(request)) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: PasskeyRegisterFormSchema, disableAutoCoercion: true });
  const deviceName = form.get("deviceName");
  let credential: unknown = null;
  try {
    credential = JSON.parse(String(form.get("credential") ?? "null"));
  } catch {
    credential = null;
  }
  const result = await verifyPasskeyRegistration(user, { credential, deviceName });
  if (!result.ok) {
    const messages = messagesFor(user);
    const message = result.message === PASSKEY_MESSAGES.registrationFailed ? messages.verifyFailed : result.message;
    if (result.field) {
      const deviceName = `Device name required: ${result.message === PASSKEY_MESSAGES.deviceName ? messages.deviceName : result.message}`;
      return replyRefused(
        submission,
        { status: result.status, message: deviceName },
        { field: "deviceName", hideFields: ["password", "credential"] },
      );
    }
    return replyRefused(submission, result, {
      formMessage: `Registration failed: ${message}`,
      hideFields: ["password", "credential"],
    });
  }
  return redirectWithToast("/settings", {
    title: "Passkey registered",
    description: `${result.passkey.deviceName} can now be used to sign in.`,
  });
}

export default function AddPasskeyDialog() {
  const { messages, needsPassword } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const submit = useSubmit();
  // The ceremony submits itself (onSubmit); Conform holds the server's answer.
  const [form, fields] = useForm({ id: "passkey", lastResult: actionData?.result });
  const hydrated = useHydrated();
  const credentialRef = useRef<HTMLInputElement>(null);
  const [clientError, setClientError] = useState<{ form?: string; deviceName?: string } | null>(null);
  const [working, setWorking] = useState(false);
  const busy = useIsPending({ state: "submitting" }) || working;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const deviceName = String(new FormData(form).get("deviceName") ?? "").trim();
    if (!deviceName) {
      setClientError({ deviceName: `Device name required: ${messages.deviceName}` });
      return;
    }
    setClientError(null);
    setWorking(true);
    try {
      const password = String(new FormData(form).get("password") ?? "");
      const response = await fetch("/api/passkeys/register/options", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(password ? { password } : {}),
      });
      if (!response.ok) {
        const answer = (await response.json().catch(() => null)) as { message?: string } | null;
        throw new Error(answer?.message ?? "Failed to get registration options");
      }
      const optionsJSON = await response.json();
      const { startRegistration } = await import("@simplewebauthn/browser");
      const credential = await startRegistration({ optionsJSON });
      credentialRef.current!.value = JSON.stringify(credential);
      submit(form, { method: "post", preventScrollReset: true });
    } catch (error) {
      setClientError({
        form: `Registration failed: ${error instanceof Error ? error.message : "Failed to register passkey"}`,
      });
    } finally {
      setWorking(false);
    }
  }

  const formErrors = clientError?.form ? [clientError.form] : form.errors;
  const deviceNameErrors = clientError?.deviceName ? [clientError.deviceName] : fields.deviceName.errors;
  const deviceNameInvalid = Boolean(deviceNameErrors?.length);
  return (
    <Dialog
      title="Add Passkey"
      description="Name this device, then confirm with your fingerprint, face or device PIN."
      closeTo="/settings"
    >
      <Form id={form.id} method="post" preventScrollReset className="space-y-4" onSubmit={onSubmit} noValidate>
        <FormErrors errors={formErrors} id={form.errorId} />
        {hydrated ? null : (
          <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-800 dark:bg-amber-950 dark:text-amber-200">
            Adding a passkey needs JavaScript, which is off or still loading in this browser.
          </p>
        )}
        <input type="hidden" name="credential" ref={credentialRef} />
        <div>
          <label className="label" htmlFor="passkey-device-name">
            Device name
          </label>
          <input
            id="passkey-device-name"
            name="deviceName"
            className="input"
            placeholder="e.g. My phone"
            maxLength={100}
            autoComplete="off"
            aria-invalid={deviceNameInvalid || undefined}
            aria-describedby={deviceNameInvalid ? "passkey-device-name-error" : undefined}
          />
          <ErrorList errors={deviceNameErrors} id="passkey-device-name-error" />
        </div>
        {needsPassword ? (
          <div>
            <label className="label" htmlFor="passkey-password">
              Current password
            </label>
            <input
              id="passkey-password"
              name="password"
              type="password"
              className="input"
              autoComplete="current-password"
            />
          </div>
        ) : null}
        <div className="flex justify-end gap-2">
          <Link to="/settings" preventScrollReset className="btn-outline">
            Cancel
          </Link>
          <SubmitButton pending={busy} pendingLabel="Waiting for your device...">
            Register Passkey
          </SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
