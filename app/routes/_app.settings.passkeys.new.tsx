import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import { Dialog, FieldError, FormError } from "~/components/dialog";
import { useHydrated } from "~/hooks/use-hydrated";
import type { User } from "~/db.server";
import { PASSKEY_MESSAGES, verifyPasskeyRegistration } from "~/models/passkey.server";
import { requireUser } from "~/utils/auth.server";
import { isRecentlyAuthenticated } from "~/models/reauth.server";
import { redirectWithToast } from "~/utils/toast.server";

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
  const form = await request.formData();
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
    return data(
      result.field
        ? { formError: null, deviceNameError: `Device name required: ${result.message === PASSKEY_MESSAGES.deviceName ? messages.deviceName : result.message}` }
        : { formError: `Registration failed: ${message}`, deviceNameError: null },
      { status: result.status },
    );
  }
  return redirectWithToast("/settings", { title: "Passkey registered", description: `${result.passkey.deviceName} can now be used to sign in.` });
}

export default function AddPasskeyDialog() {
  const { messages, needsPassword } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const credentialRef = useRef<HTMLInputElement>(null);
  const [clientError, setClientError] = useState<{ form?: string; deviceName?: string } | null>(null);
  const [working, setWorking] = useState(false);
  const busy = working || navigation.state === "submitting";

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
      setClientError({ form: `Registration failed: ${error instanceof Error ? error.message : "Failed to register passkey"}` });
    } finally {
      setWorking(false);
    }
  }

  const formError = clientError?.form ?? actionData?.formError;
  const deviceNameError = clientError?.deviceName ?? actionData?.deviceNameError;
  return (
    <Dialog title="Add Passkey" description="Name this device, then confirm with your fingerprint, face or device PIN." closeTo="/settings">
      <Form method="post" preventScrollReset className="space-y-4" onSubmit={onSubmit} noValidate>
        <FormError errors={formError ? [formError] : null} />
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
            aria-invalid={deviceNameError ? true : undefined}
            aria-describedby={deviceNameError ? "passkey-device-name-error" : undefined}
          />
          <FieldError errors={deviceNameError ? [deviceNameError] : null} id="passkey-device-name-error" />
        </div>
        {needsPassword ? (
          <div>
            <label className="label" htmlFor="passkey-password">
              Current password
            </label>
            <input id="passkey-password" name="password" type="password" className="input" autoComplete="current-password" />
          </div>
        ) : null}
        <div className="flex justify-end gap-2">
          <Link to="/settings" preventScrollReset className="btn-outline">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Waiting for your device..." : "Register Passkey"}
          </button>
        </div>
      </Form>
    </Dialog>
  );
}
