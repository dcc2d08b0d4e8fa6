import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { Role } from "~/db.server";
import { useHydrated } from "~/hooks/use-hydrated";
import { ShieldIcon } from "./icons";

const ROLE_SWITCH_RELOAD_MS = 1000;

const OPTIONS: { value: Role; label: string }[] = [
  { value: "staff", label: "Staff (Operations Only)" },
  { value: "manager", label: "Manager (Full Access)" },
  { value: "admin", label: "Admin (+ User Management)" },
];

/**
 * The header toggle and the Development Role Switcher card (admins and the owner e-mail only).
 * <details> opens it without JavaScript; the form then posts and redirects back.
 */
export function RoleSwitcher({ role }: { role: Role }) {
  const fetcher = useFetcher<{ ok: boolean }>();
  const location = useLocation();
  const [choice, setChoice] = useState<Role>(role);
  const hydrated = useHydrated();
  useEffect(() => setChoice(role), [role]);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.ok) return;
    const timer = window.setTimeout(() => window.location.reload(), ROLE_SWITCH_RELOAD_MS);
    return () => window.clearTimeout(timer);
  }, [fetcher.state, fetcher.data]);
  const busy = fetcher.state !== "idle";
  return (
    <details className="relative">
      <summary
        className="btn-ghost cursor-pointer list-none px-2 [&::-webkit-details-marker]:hidden"
        aria-label="Role switcher"
        title="Role switcher"
      >
        <ShieldIcon />
      </summary>
      <div className="fixed inset-x-2 top-16 z-40 sm:absolute sm:inset-x-auto sm:left-0 sm:top-12 sm:w-80">
        <section className="card p-4 shadow-lg" aria-labelledby="role-switcher-title">
          <div className="flex items-center justify-between gap-2">
            <h2 id="role-switcher-title" className="font-semibold">
              Development Role Switcher
            </h2>
            <span className="badge bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">
              testing only
            </span>
          </div>
          <fetcher.Form method="post" action="/settings/role" className="mt-3 space-y-3">
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            {hydrated ? <input type="hidden" name="js" value="1" /> : null}
            <fieldset className="space-y-2">
              <legend className="sr-only">Role</legend>
              {OPTIONS.map((o) => (
                <label key={o.value} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="role"
                    value={o.value}
                    checked={choice === o.value}
                    onChange={() => setChoice(o.value)}
                  />
                  {o.label}
                </label>
              ))}
            </fieldset>
            <button type="submit" className="btn-primary w-full" disabled={busy || (hydrated && choice === role)}>
              {busy ? "Switching..." : "Switch"}
            </button>
          </fetcher.Form>
        </section>
      </div>
    </details>
  );
}
