import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { TemporaryPasswordDialogBody } from "~/components/settings/security-cards";
import { getUserRow } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse } from "~/utils/http.server";
import { takeTemporaryPassword } from "~/utils/temporary-password-cookie.server";

export const meta: MetaFunction = () => [{ title: "Password Reset · Management" }];

// The page a reset redirects to (decision 0400). It shows the new password once: the cookie that
// carried it is cleared in the same answer, and a reload says it was already shown. It never
// loads again by itself, or the password would vanish while the admin copies it.
export const shouldRevalidate = () => false;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  const user = await getUserRow(admin, params.id ?? "");
  invariantResponse(user, "User not found");
  const { shown, clear } = await takeTemporaryPassword(request, user.id);
  const reset = shown ? { email: shown.email, temporaryPassword: shown.temporaryPassword } : null;
  return data(
    { user: { id: user.id, displayName: user.displayName, email: user.email }, reset },
    { headers: { "Set-Cookie": clear, "Cache-Control": "no-store" } },
  );
}

export default function TemporaryPasswordPage() {
  const { user, reset } = useLoaderData<typeof loader>();
  if (reset) {
    return (
      <Dialog
        title="Password Reset Successful"
        description="The user has been signed out everywhere."
        closeTo="/settings"
        dismissible={false}
      >
        <TemporaryPasswordDialogBody {...reset} />
      </Dialog>
    );
  }
  return (
    <Dialog title="Password Already Shown" closeTo="/settings" size="sm">
      <div className="space-y-4">
        <p className="text-sm">
          The temporary password for <strong>{user.email}</strong> was shown once and is not kept. If it was not written
          down, reset the password again.
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={`/settings/users/${user.id}/reset`} preventScrollReset className="btn-outline">
            Reset Again
          </Link>
          <Link to="/settings" preventScrollReset className="btn-primary">
            Done
          </Link>
        </div>
      </div>
    </Dialog>
  );
}
