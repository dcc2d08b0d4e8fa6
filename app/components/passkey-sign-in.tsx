import { useEffect, useState } from "react";

/**
 * Entry point for signing in with a passkey. The WebAuthn ceremony itself needs JavaScript;
 * without it the dialog says so and offers the e-mail sign-in.
 */
export function PasskeySignIn() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <div className="space-y-4">
      <div>
        <label className="label" htmlFor="passkey-email">
          Email
        </label>
        <input id="passkey-email" name="email" type="email" className="input" autoComplete="username webauthn" />
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {hydrated
          ? "Passkey sign-in is not available yet. Please sign in with your email and password."
          : "Passkey sign-in needs JavaScript. Please sign in with your email and password."}
      </p>
      <a href="?dialog=email" className="btn-outline w-full">
        Use email and password
      </a>
    </div>
  );
}
