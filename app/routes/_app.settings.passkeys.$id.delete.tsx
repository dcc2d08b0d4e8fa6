import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { deletePasskey, getPasskey } from "~/models/passkey.server";
import { requireUser } from "~/utils/auth.server";
import { parseId } from "~/utils/params";
import { invariantResponse } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete Passkey · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const passkey = await getPasskey(user.id, parseId(params.id) ?? 0);
  invariantResponse(passkey, "Passkey not found");
  return { passkey };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!(await deletePasskey(user.id, parseId(params.id) ?? 0))) {
    return redirectWithToast("/settings", { title: "Failed to delete passkey", description: "Passkey not found", variant: "destructive" });
  }
  return redirectWithToast("/settings", { title: "Passkey deleted successfully" });
}

export default function DeletePasskeyDialog() {
  const { passkey } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  return (
    <Dialog title="Delete Passkey" description={`Delete the passkey "${passkey.deviceName}"?`} closeTo="/settings" size="sm">
      <Form method="post" preventScrollReset className="space-y-4">
        <p className="text-sm">This cannot be undone. That device can no longer sign you in with this passkey.</p>
        <div className="flex justify-end gap-2">
          <Link to="/settings" preventScrollReset className="btn-outline">
            Cancel
          </Link>
          <button type="submit" className="btn-destructive" disabled={busy}>
            Delete Passkey
          </button>
        </div>
      </Form>
    </Dialog>
  );
}
