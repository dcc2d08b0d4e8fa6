import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useIsPending } from "~/hooks/use-is-pending";
import { Dialog } from "~/components/dialog";
import { nameWithEmail } from "~/components/settings/security-cards";
import {
  bulkDeleteUsers,
  bulkFailureText,
  bulkMessage,
  bulkSetStatus,
  getUserRows,
  listUsers,
} from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Confirm · Management" }];

const INTENTS = {
  freeze: {
    title: "Freeze Selected Users",
    verb: "Freeze",
    text: "They are signed out at once and cannot sign in until unfrozen.",
  },
  unfreeze: { title: "Unfreeze Selected Users", verb: "Unfreeze", text: "They can sign in again." },
  delete: {
    title: "Delete Selected Users",
    verb: "Delete",
    text: "This cannot be undone. They are signed out at once and can no longer sign in; their records stay.",
  },
} as const;
type Intent = keyof typeof INTENTS;
const isIntent = (v: unknown): v is Intent => typeof v === "string" && v in INTENTS;

// GET shows the confirmation for the boxes ticked in the user list (works without JavaScript:
// the list is a GET form); only the POST below changes anything.
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  const url = new URL(request.url);
  const intent = url.searchParams.get("intent");
  if (!isIntent(intent))
    throw await redirectWithToast("/settings", { title: "Please choose an action", variant: "destructive" });
  // Deleted users take no bulk action: a stale list's box for one is dropped here.
  const rows = (
    url.searchParams.get("all")
      ? (await listUsers(admin)).filter((u) => u.id !== admin.id)
      : await getUserRows(admin, url.searchParams.getAll("userIds"))
  ).filter((u) => u.status !== "deleted");
  if (!rows.length)
    throw await redirectWithToast("/settings", { title: "Please select at least one user", variant: "destructive" });
  return {
    intent,
    users: rows.map((u) => ({ id: u.id, displayName: u.displayName, email: u.email, own: u.id === admin.id })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  const form = await readForm(request);
  const intent = form.get("intent");
  const userIds = form.getAll("userIds").map(String);
  if (!isIntent(intent))
    return redirectWithToast("/settings", { title: "Please choose an action", variant: "destructive" });
  const result =
    intent === "delete"
      ? await bulkDeleteUsers(admin, userIds)
      : await bulkSetStatus(admin, userIds, intent === "freeze" ? "frozen" : "active");
  if (!result.ok) {
    const title = intent === "delete" ? "Failed to delete users" : "Failed to update users";
    return redirectWithToast("/settings", { title, description: result.message, variant: "destructive" });
  }
  const title = bulkMessage(result, intent === "delete" ? "deleted" : "updated");
  if (!result.failed.length) return redirectWithToast("/settings", { title });
  return redirectWithToast("/settings", {
    title,
    description: `Not changed: ${bulkFailureText(result)}.`,
    variant: result.success.length ? "default" : "destructive",
  });
}

export default function BulkConfirmDialog() {
  const { intent, users } = useLoaderData<typeof loader>();
  const busy = useIsPending({ state: "submitting" });
  const copy = INTENTS[intent];
  return (
    <Dialog
      title={copy.title}
      description={`${copy.verb} ${users.length} user${users.length === 1 ? "" : "s"}?`}
      closeTo="/settings"
      size="sm"
    >
      <Form method="post" action="/settings/users/bulk" preventScrollReset className="space-y-4">
        <input type="hidden" name="intent" value={intent} />
        <ul className="max-h-48 list-disc overflow-y-auto pl-5 text-sm">
          {users.map((u) => (
            <li key={u.id}>
              <input type="hidden" name="userIds" value={u.id} />
              {nameWithEmail(u)}
              {u.own ? <span className="text-slate-500"> (your own account is skipped)</span> : null}
            </li>
          ))}
        </ul>
        <p className="text-sm">{copy.text}</p>
        <div className="flex justify-end gap-2">
          <Link to="/settings" preventScrollReset className="btn-outline">
            Cancel
          </Link>
          <button type="submit" className={intent === "delete" ? "btn-destructive" : "btn-primary"} disabled={busy}>
            {copy.verb} {users.length === 1 ? "User" : "Users"}
          </button>
        </div>
      </Form>
    </Dialog>
  );
}
