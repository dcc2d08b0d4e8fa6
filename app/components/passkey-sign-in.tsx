import { useState, type FormEvent } from "react";
import { useHydrated } from "~/hooks/use-hydrated";

/**
 * Signing in with a passkey. The e-mail is optional: with it only that account's passkeys are
 * offered, without it the browser lists the passkeys it holds for this site. The WebAuthn
 * ceremony needs JavaScript; without it the dialog says so and offers the e-mail sign-in.
 * The browser library loads only when the button is pressed, to keep it off the first load.
 */
export function PasskeySignIn() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hydrated = useHydrated();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    setBusy(true);
    setError(null);
    try {
      const optionsResponse = await fetch("/api/passkeys/authenticate/options", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(email ? { email } : {}),
        credentials: "same-origin",
      });
      if (!optionsResponse.ok) throw new Error("Failed to get authentication options");
      const optionsJSON = await optionsResponse.json();
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const credential = await startAuthentication({ optionsJSON });
      const verifyResponse = await fetch("/api/passkeys/authenticate/verify", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ credential }),
        credentials: "same-origin",
      });
      const result = (await verifyResponse.json().catch(() => null)) as {
        verified?: boolean;
        message?: string;
        user?: { mustChangePassword?: number };
      } | null;
      if (!verifyResponse.ok || !result?.verified)
        throw new Error(result?.message ?? "Authentication verification failed");
      // A full load: the new session cookie and every loader start fresh.
      window.location.assign(result.user?.mustChangePassword === 1 ? "/change-password" : "/deliveries");
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "Authentication verification failed");
      setBusy(false);
    }
  }

  return (
    <form method="get" className="space-y-4" onSubmit={onSubmit} noValidate>
      <input type="hidden" name="dialog" value="passkey" />
      {error ? (
        <div
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-300"
        >
          <p className="font-semibold">Login failed</p>
          <p>{error}</p>
        </div>
      ) : null}
      <div>
        <label className="label" htmlFor="passkey-email">
          Email (optional)
        </label>
        <input id="passkey-email" name="email" type="email" className="input" autoComplete="username webauthn" />
        <p className="mt-1 text-xs text-slate-500">Leave empty to choose from the passkeys saved on this device.</p>
      </div>
      {hydrated ? (
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Waiting for your device..." : "Sign in with passkey"}
        </button>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Passkey sign-in needs JavaScript. Please sign in with your email and password.
        </p>
      )}
      <a href="?dialog=email" className="btn-outline w-full">
        Use email and password
      </a>
    </form>
  );
}
