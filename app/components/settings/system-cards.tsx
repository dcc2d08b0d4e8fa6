import { Form, useNavigation } from "@remix-run/react";
import { MoneyInput } from "~/components/money-input";
import type { SystemSettingsData } from "~/models/settings.server";
import type { PublicUser } from "~/models/user.server";

export function SystemSettingsCards({ system }: { system: SystemSettingsData }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/settings/rates";
  return (
    <>
      <section className="card p-5" aria-labelledby="rates-title">
        <h2 id="rates-title" className="font-semibold">Default Rates Configuration</h2>
        <p className="page-subtitle">New deliveries copy these rates when they are recorded; existing deliveries keep their own.</p>
        <Form method="post" action="/settings/rates" className="mt-4 grid gap-4 sm:grid-cols-2">
          <div>
            <label className="label" htmlFor="buyingRate">Buying Rate (₦ per ton)</label>
            <MoneyInput id="buyingRate" name="buyingRate" required defaultValue={system.buyingRate} />
          </div>
          <div>
            <label className="label" htmlFor="sellingRate">Selling Rate (₦ per ton)</label>
            <MoneyInput id="sellingRate" name="sellingRate" required defaultValue={system.sellingRate} />
          </div>
          <div>
            <label className="label" htmlFor="taxRate">Tax Rate (%)</label>
            <input id="taxRate" name="taxRate" type="number" step="0.01" min="0" max="100" inputMode="decimal" className="input" required defaultValue={system.taxRate} />
          </div>
          <div>
            <label className="label" htmlFor="offloadingCost">Offloading Cost (₦ per delivery)</label>
            <MoneyInput id="offloadingCost" name="offloadingCost" required defaultValue={system.offloadingCost} />
          </div>
          <div className="sm:col-span-2">
            <label className="label" htmlFor="deliveryClientName">Delivery client</label>
            <input id="deliveryClientName" name="deliveryClientName" className="input" maxLength={200} defaultValue={system.deliveryClientName} />
            <p className="page-subtitle mt-1">The client the New Delivery form is fixed to (matched by name, ignoring case).</p>
          </div>
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary" disabled={busy}>{busy ? "Saving..." : "Save Rates"}</button>
          </div>
        </Form>
      </section>
      <section className="card p-5" aria-labelledby="how-title">
        <h2 id="how-title" className="font-semibold">How It Works</h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-300">
          <li><strong>Buying rate</strong> is the price per ton paid to agents.</li>
          <li><strong>Selling rate</strong> is the price per ton charged to clients.</li>
          <li><strong>Tax rate</strong> applies to all invoices.</li>
          <li><strong>Offloading cost</strong> is a fixed per-delivery cost deducted from the agent&apos;s net payment.</li>
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
        <div><dt className="text-slate-500">Name</dt><dd>{profile.displayName}</dd></div>
        <div><dt className="text-slate-500">Email</dt><dd>{profile.email}</dd></div>
        <div><dt className="text-slate-500">Role</dt><dd className="capitalize">{profile.role}</dd></div>
      </dl>
    </section>
  );
}
