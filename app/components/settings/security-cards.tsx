import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { KeyIcon, PlusIcon, ShieldIcon, UsersIcon } from "~/components/icons";
import { roleBadgeClass } from "~/components/app-shell";
import { CopyButton } from "~/components/copy-button";
import type { SecurityCardsData, SecurityUserRow } from "~/presenters/security.server";
import type { PublicUser } from "~/models/user.server";
import { useHydrated } from "~/hooks/use-hydrated";
import { formatDate } from "~/utils/dates";

export function SecurityCards({ security, profile }: { security: SecurityCardsData; profile: PublicUser }) {
  return (
    <>
      <PasswordCard />
      <TwoFactorCard enabled={security.totpEnabled} />
      {security.users ? <UserManagementCard users={security.users} currentUserId={profile.id} /> : null}
      <PasskeyCard passkeys={security.passkeys} />
    </>
  );
}

/**
 * A settings card: its title (with its icon) labels the section, what the card is for sits
 * under it, and its actions (links that open a dialog) on the right; the body follows.
 */
function SettingsCard({
  id,
  icon,
  title,
  summary,
  actions,
  children,
}: {
  id: string;
  icon?: ReactNode;
  title: string;
  summary: ReactNode;
  actions: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="card p-5" aria-labelledby={id}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id={id} className={icon ? "flex items-center gap-2 font-semibold" : "font-semibold"}>
            {icon}
            {icon ? " " : null}
            {title}
          </h2>
          <p className="page-subtitle">{summary}</p>
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A link that opens a settings dialog over the page, keeping the scroll where it is. */
function DialogLink({
  to,
  primary,
  add,
  children,
}: {
  to: string;
  primary?: boolean;
  add?: boolean;
  children: ReactNode;
}) {
  return (
    <Link to={to} preventScrollReset className={primary ? "btn-primary" : "btn-outline"}>
      {add ? <PlusIcon width={16} height={16} /> : null}
      {add ? " " : null}
      {children}
    </Link>
  );
}

function PasswordCard() {
  return (
    <SettingsCard
      id="password-card-title"
      title="Password"
      summary="Change the password you sign in with. Your other devices will be signed out."
      actions={<DialogLink to="/settings/password">Change Password</DialogLink>}
    />
  );
}

function TwoFactorCard({ enabled }: { enabled: boolean }) {
  return (
    <SettingsCard
      id="totp-card-title"
      icon={<ShieldIcon width={18} height={18} />}
      title="Two-factor authentication"
      summary={
        enabled
          ? "On: signing in with your password also asks for a 6-digit code from your authenticator app."
          : "Off: add a 6-digit code from an authenticator app to your password sign-in."
      }
      actions={
        enabled ? (
          <div className="flex flex-wrap gap-2">
            <DialogLink to="/settings/two-factor/recovery-codes">Recovery Codes</DialogLink>
            <DialogLink to="/settings/two-factor/disable">Turn Off Two-factor</DialogLink>
          </div>
        ) : (
          <DialogLink to="/settings/two-factor" primary>
            Set Up Two-factor
          </DialogLink>
        )
      }
    />
  );
}

function PasskeyCard({ passkeys }: { passkeys: SecurityCardsData["passkeys"] }) {
  return (
    <SettingsCard
      id="passkey-card-title"
      icon={<KeyIcon width={18} height={18} />}
      title="Passkey Authentication"
      summary="Sign in with your fingerprint, face or device PIN instead of a password."
      actions={
        <DialogLink to="/settings/passkeys/new" add>
          Add Passkey
        </DialogLink>
      }
    >
      {passkeys.length ? (
        <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800" aria-label="Passkeys">
          {passkeys.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div>
                <p className="font-medium">{p.deviceName}</p>
                <p className="text-xs text-slate-500">
                  Added {formatDate(p.addedOn)} ·{" "}
                  {p.lastUsedOn ? `Last used ${formatDate(p.lastUsedOn)}` : "Never used"}
                </p>
              </div>
              <Link
                to={`/settings/passkeys/${p.id}/delete`}
                preventScrollReset
                className="btn-ghost btn-sm text-red-600"
                aria-label={`Delete passkey ${p.deviceName}`}
              >
                Delete
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-slate-500">No passkeys registered yet.</p>
      )}
    </SettingsCard>
  );
}

function statusBadge(status: SecurityUserRow["status"]) {
  if (status === "frozen")
    return <span className="badge bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">Frozen</span>;
  if (status === "deleted")
    return <span className="badge bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200">Deleted</span>;
  return null;
}

function UserManagementCard({ users, currentUserId }: { users: SecurityUserRow[]; currentUserId: string }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  // Deleted users take no bulk action (decision 0400): they get no box and Select All skips them.
  const selectable = users.filter((u) => u.id !== currentUserId && u.status !== "deleted");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const userKey = users.map((u) => `${u.id}:${u.status}`).join(",");
  // The list changed (an action finished): the selection is cleared (spec section 8).
  useEffect(() => setSelected(new Set()), [userKey]);
  const allSelected = selectable.length > 0 && selectable.every((u) => selected.has(u.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const busy = navigation.state !== "idle";
  const showBulk = !hydrated || selected.size > 0;
  return (
    <SettingsCard
      id="users-card-title"
      icon={<UsersIcon width={18} height={18} />}
      title="User Management"
      summary="Add staff and managers, reset passwords, freeze or delete accounts."
      actions={
        <DialogLink to="/settings/users/new" primary add>
          Add User
        </DialogLink>
      }
    >
      {selectable.length === 0 ? (
        <div className="mt-6 rounded-md border border-dashed border-slate-300 p-6 text-center dark:border-slate-700">
          <p className="font-medium">No users found</p>
          <p className="page-subtitle">Add your first staff or manager account</p>
        </div>
      ) : (
        <>
          <Form
            method="get"
            action="/settings/users/bulk"
            id="bulk-users"
            preventScrollReset
            className="mt-4 flex flex-wrap items-center gap-2"
          >
            <label className="mr-auto flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="all"
                value="1"
                className="h-4 w-4"
                checked={allSelected}
                onChange={(e) => setSelected(e.target.checked ? new Set(selectable.map((u) => u.id)) : new Set())}
              />
              {hydrated ? `Select All (${selected.size} selected)` : "Select All"}
            </label>
            {showBulk ? (
              <>
                <button type="submit" name="intent" value="freeze" className="btn-outline btn-sm" disabled={busy}>
                  Freeze Selected
                </button>
                <button type="submit" name="intent" value="unfreeze" className="btn-outline btn-sm" disabled={busy}>
                  Unfreeze Selected
                </button>
                <button type="submit" name="intent" value="delete" className="btn-destructive btn-sm" disabled={busy}>
                  Delete Selected
                </button>
              </>
            ) : null}
          </Form>
          <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800" aria-label="Users">
            {users.map((u) => (
              <UserRow
                key={u.id}
                user={u}
                own={u.id === currentUserId}
                checked={selected.has(u.id)}
                onToggle={toggle}
              />
            ))}
          </ul>
        </>
      )}
    </SettingsCard>
  );
}

function UserRow({
  user,
  own,
  checked,
  onToggle,
}: {
  user: SecurityUserRow;
  own: boolean;
  checked: boolean;
  onToggle: (id: string, on: boolean) => void;
}) {
  const label = user.displayName;
  const actionable = !own && user.status !== "deleted";
  // A phone gets the name, e-mail and date on their own lines and the buttons below them; from
  // lg up the buttons sit at the row's right and wrap below only when the name would get narrow.
  return (
    <li
      className="grid grid-cols-[1rem_minmax(0,1fr)] items-start gap-x-3 gap-y-2 py-3 lg:flex lg:flex-wrap lg:items-center"
      aria-label={label}
    >
      {actionable ? (
        <input
          type="checkbox"
          form="bulk-users"
          name="userIds"
          value={user.id}
          className="mt-1 h-4 w-4 lg:mt-0"
          aria-label={`Select ${label}`}
          checked={checked}
          onChange={(e) => onToggle(user.id, e.target.checked)}
        />
      ) : (
        <span className="w-4" />
      )}
      <div className="min-w-0 lg:min-w-[14rem] lg:flex-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
          <span className="max-w-full shrink-0 truncate" title={label}>
            {label}
          </span>
          <span className={"badge capitalize " + roleBadgeClass(user.role)}>{user.role}</span>
          {statusBadge(user.status)}
          {user.lockedUntil ? (
            <span
              className="badge bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200"
              title={`Sign-in locked until ${user.lockedUntil}`}
            >
              Locked until {user.lockedUntil}
            </span>
          ) : null}
          {own ? <span className="text-xs text-slate-500">(you)</span> : null}
        </p>
        {user.displayName === user.email ? null : (
          <p className="truncate text-sm text-slate-500" title={user.email}>
            {user.email}
          </p>
        )}
        <p className="whitespace-nowrap text-xs text-slate-500">Added {formatDate(user.addedOn)}</p>
        {user.temporaryPasswordIssuedAt ? (
          <p className="text-xs text-slate-500">
            Temporary password issued {user.temporaryPasswordIssuedAt}
            {user.temporaryPasswordUsed ? " · used to sign in, new password not yet chosen" : " · not used yet"}
          </p>
        ) : null}
      </div>
      {actionable ? (
        <div className="col-start-2 flex flex-wrap gap-2 lg:ml-auto lg:justify-end">
          {user.lockedUntil ? (
            <Form method="post" action={`/settings/users/${user.id}/unlock`} preventScrollReset>
              <button type="submit" className="btn-outline btn-sm" aria-label={`Unlock sign-in for ${label}`}>
                Unlock
              </button>
            </Form>
          ) : null}
          <UserDialogLink user={user} dialog="reset" text="Reset Password" ariaLabel={`Reset Password for ${label}`} />
          {user.status === "active" ? (
            <UserDialogLink user={user} dialog="role" text="Change Role" ariaLabel={`Change Role for ${label}`} />
          ) : null}
          <Form method="post" action={`/settings/users/${user.id}/status`} preventScrollReset>
            <input type="hidden" name="status" value={user.status === "frozen" ? "active" : "frozen"} />
            <button
              type="submit"
              className="btn-outline btn-sm"
              aria-label={`${user.status === "frozen" ? "Unfreeze" : "Freeze"} ${label}`}
            >
              {user.status === "frozen" ? "Unfreeze" : "Freeze"}
            </button>
          </Form>
          <UserDialogLink
            user={user}
            dialog="delete"
            text="Delete"
            ariaLabel={`Delete ${label}`}
            className="btn-destructive btn-sm"
          />
        </div>
      ) : null}
    </li>
  );
}

/** A user row's link to one of the dialogs that act on that user. */
function UserDialogLink({
  user,
  dialog,
  text,
  ariaLabel,
  className = "btn-outline btn-sm",
}: {
  user: SecurityUserRow;
  dialog: "reset" | "role" | "delete";
  text: string;
  ariaLabel: string;
  className?: string;
}) {
  return (
    <Link to={`/settings/users/${user.id}/${dialog}`} preventScrollReset className={className} aria-label={ariaLabel}>
      {text}
    </Link>
  );
}

/** "Ada Obi (ada@x.test)", or the e-mail once when the user has no name. */
export function nameWithEmail(user: { displayName: string; email: string }) {
  return user.displayName === user.email ? user.email : `${user.displayName} (${user.email})`;
}

/** Shows a temporary password once; only Done closes it (spec section 4). */
export function TemporaryPasswordDialogBody({
  email,
  temporaryPassword,
}: {
  email: string;
  temporaryPassword: string;
}) {
  return (
    <div className="space-y-4">
      <p className="text-sm">
        Give this temporary password to <strong>{email}</strong>. It is shown only once; they must choose a new password
        when they sign in.
      </p>
      <div>
        <p className="label" id="temp-password-label">
          Temporary password
        </p>
        <div className="flex items-center gap-2">
          <output
            aria-labelledby="temp-password-label"
            data-testid="temporary-password"
            className="block min-w-0 flex-1 select-all break-all rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-lg tracking-wider dark:border-slate-700 dark:bg-slate-800"
          >
            {temporaryPassword}
          </output>
          <CopyButton text={temporaryPassword} label="Copy password to clipboard" />
        </div>
      </div>
      <Link to="/settings" className="btn-primary w-full" preventScrollReset>
        Done
      </Link>
    </div>
  );
}
