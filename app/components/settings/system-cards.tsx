import type { PublicUser } from "~/models/user.server";
import type { SystemSettingsData } from "~/models/settings.server";

// Issue 4: Default Rates Configuration, How It Works, the delivery client setting.
export function SystemSettingsCards(_props: { system: SystemSettingsData }) {
  return null;
}

// Issue 4: Profile Information for non-admins.
export function ProfileCard({ profile }: { profile: PublicUser }) {
  return (
    <section className="card p-5">
      <h2 className="font-semibold">Profile Information</h2>
      <dl className="mt-3 grid gap-2 text-sm">
        <div><dt className="text-slate-500">Name</dt><dd>{profile.displayName}</dd></div>
        <div><dt className="text-slate-500">Email</dt><dd>{profile.email}</dd></div>
        <div><dt className="text-slate-500">Role</dt><dd className="capitalize">{profile.role}</dd></div>
      </dl>
    </section>
  );
}
