import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormErrors, InputField, MoneyField } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import type { SystemSettingsData } from "~/models/settings.server";
import type { PublicUser } from "~/models/user.server";

/**
 * Default Rates Configuration. It posts to /settings/rates; an answer with errors renders this
 * same form there, every message under its field.
 */
export function RatesForm({
  lastResult,
  saved,
  notice,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  /** What is saved now, when the answer is that someone else saved first (the form starts again from it). */
  saved?: SystemSettingsData;
  notice?: string;
}) {
  const settings = useRouteLoaderData<{ system: SystemSettingsData | null }>("routes/_app.settings");
  const system = saved ?? settings?.system;
  const busy = useIsPending({ formAction: "/settings/rates" });
  const [form, fields] = useForm({
    id: "rates",
    lastResult,
    defaultValue: system ?? undefined,
  });
  return (
    <section className="card p-5" aria-labelledby="rates-title">
      <h2 id="rates-title" className="font-semibold">
        Default Rates Configuration
      </h2>
      <p className="page-subtitle">
        New deliveries copy these rates when they are recorded; existing deliveries keep their own.
      </p>
      <Form
        method="post"
        action="/settings/rates"
        {...getFormProps(form)}
        className="mt-4 grid gap-4 sm:grid-cols-2"
        preventScrollReset
      >
        <FormErrors errors={busy ? null : (form.errors ?? (notice ? [notice] : null))} id={form.errorId} />
        {/* The version these values were read at (not a Conform field: it must never come back
            from a refused post, or every later save would be refused too). */}
        {system ? <input type="hidden" name="version" value={system.version} /> : null}
        <MoneyField meta={fields.buyingRate} label="Buying Rate (₦ per ton)" hideErrors={busy} />
        <MoneyField meta={fields.sellingRate} label="Selling Rate (₦ per ton)" hideErrors={busy} />
        <InputField
          meta={fields.taxRate}
          label="Tax Rate (%)"
          type="number"
          step="0.01"
          min="0"
          max="100"
          inputMode="decimal"
          hideErrors={busy}
        />
        <MoneyField meta={fields.offloadingCost} label="Offloading Cost (₦ per delivery)" hideErrors={busy} />
        <InputField
          meta={fields.deliveryClientName}
          label="Delivery client"
          description="The client the New Delivery form is fixed to (matched by name, ignoring case)."
          className="sm:col-span-2"
          maxLength={200}
          hideErrors={busy}
        />
        <MoneyField
          meta={fields.payoutApprovalLimit}
          label="Payout approval limit (₦)"
          description="A payout or advance above this waits for a second admin's approval. Empty: none does."
          hideErrors={busy}
        />
        <InputField
          meta={fields.reminderLevels}
          label="Reminder levels (days from the due date)"
          description="A reminder is due when an invoice with a balance reaches a level: -3 is three days before it is due, 0 the day, 7 a week after."
          className="sm:col-span-2"
          maxLength={100}
          hideErrors={busy}
        />
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Saving..." : "Save Rates"}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** System Settings' cards; `ratesCard` is the rates form (with the last answer's messages). */
export function SystemSettingsCards({ ratesCard }: { ratesCard: ReactNode }) {
  return (
    <>
      {ratesCard}
      <section className="card flex flex-wrap items-center justify-between gap-3 p-5" aria-labelledby="business-title">
        <div>
          <h2 id="business-title" className="font-semibold">
            Business Details
          </h2>
          <p className="page-subtitle">Company name, address, tax numbers, bank account and logo for invoices.</p>
        </div>
        <Link to="/settings/business" className="btn-outline">
          Edit Business Details
        </Link>
      </section>
      <section className="card p-5" aria-labelledby="how-title">
        <h2 id="how-title" className="font-semibold">
          How It Works
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-300">
          <li>
            <strong>Buying rate</strong> is the price per ton paid to agents.
          </li>
          <li>
            <strong>Selling rate</strong> is the price per ton charged to clients.
          </li>
          <li>
            <strong>Tax rate</strong> applies to all invoices.
          </li>
          <li>
            <strong>Offloading cost</strong> is a fixed per-delivery cost deducted from the agent&apos;s net payment.
          </li>
          <li>Managers can still enter logistics and other costs per delivery.</li>
        </ul>
      </section>
    </>
  );
}

export function ProfileCard({ profile }: { profile: PublicUser }) {
  return (
    <section className="card p-5">
      <h2 className="font-semibold">Profile Information</h2>
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-500 dark:text-slate-400">Name</dt>
          <dd>{profile.displayName}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Email</dt>
          <dd>{profile.email}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Role</dt>
          <dd className="capitalize">{profile.role}</dd>
        </div>
      </dl>
    </section>
  );
}
