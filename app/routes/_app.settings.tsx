import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useMatches, useOutlet } from "@remix-run/react";
import { SecurityCards } from "~/components/settings/security-cards";
import { ProfileCard, RatesForm, SystemSettingsCards } from "~/components/settings/system-cards";
import { loadSecurityCards } from "~/presenters/security.server";
import { PeriodCard } from "~/components/settings/period-card";
import { getPeriodState } from "~/models/period.server";
import { PERIOD_FORM_CONSTRAINTS } from "~/schemas/periods";
import { loadSystemSettings } from "~/models/settings.server";
import { toPublicUser } from "~/models/user.server";
import { requireUser } from "~/utils/auth.server";
import { can } from "~/rules/capabilities.server";
import { keepListBehindDialogs } from "~/utils/revalidate";

// Opening a dialog over Settings does not load its lists again (decision 0200).
export const shouldRevalidate = keepListBehindDialogs("/settings");

export const meta: MetaFunction = () => [{ title: "Settings · Management" }];

// Admins see System Settings; everyone else their own Settings page (spec section 2). Each
// card's forms post to their own child routes (/settings/...), which also render the dialogs.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [system, period, security] = await Promise.all([
    can(user, "settings.manage") ? loadSystemSettings(user) : Promise.resolve(null),
    can(user, "period.close") ? getPeriodState(user) : Promise.resolve(null),
    loadSecurityCards(user),
  ]);
  return { profile: toPublicUser(user), system, period, periodConstraints: PERIOD_FORM_CONSTRAINTS, security };
}

export default function SettingsPage() {
  const { profile, system, security } = useLoaderData<typeof loader>();
  const outlet = useOutlet();
  // After a rates post with errors, /settings/rates renders the rates form with its messages
  // in the rates card's place; every other child route is a dialog over the page.
  const matches = useMatches();
  const ratesAnswer = matches.some((m) => m.id === "routes/_app.settings.rates");
  // Likewise the Month Close card after a close or reopen with errors.
  const periodAnswer = matches.some((m) => m.id === "routes/_app.settings.periods");
  const inPlace = ratesAnswer || periodAnswer;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      {system ? (
        <>
          <header>
            <h1 className="page-title">System Settings</h1>
            <p className="page-subtitle">Rates, users and security</p>
          </header>
          <SystemSettingsCards ratesCard={ratesAnswer ? outlet : <RatesForm />} />
          {periodAnswer ? outlet : <PeriodCard />}
        </>
      ) : (
        <>
          <header>
            <h1 className="page-title">Settings</h1>
            <p className="page-subtitle">Your profile and security</p>
          </header>
          <ProfileCard profile={profile} />
        </>
      )}
      <SecurityCards security={security} profile={profile} />
      {inPlace ? null : outlet}
    </div>
  );
}
