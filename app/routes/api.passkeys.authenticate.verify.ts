import type { ActionFunctionArgs } from "@remix-run/node";
import { bindingHash, verifyPasskeyAuthentication } from "~/models/passkey.server";
import { toPublicUser } from "~/models/user.server";
import { jsonError, signInUser } from "~/utils/auth.server";
import { clientAddress } from "~/utils/client-address.server";
import { passkeyBindingCookie } from "~/utils/cookies.server";
import { logEvent } from "~/utils/logger.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { SIGNED_IN_TOAST, toastHeader } from "~/utils/toast.server";

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const address = clientAddress(request, context);
  const body = await readJsonBody(request);
  const bound = await passkeyBindingCookie().parse(request.headers.get("Cookie"));
  const result = await verifyPasskeyAuthentication(
    body.credential,
    new Date(),
    typeof bound === "string" ? bindingHash(bound) : null,
  );
  if (!result.ok) {
    logEvent("info", { event: "signin.failure", method: "passkey", address });
    return jsonError(result.status, result.message, { verified: false });
  }
  logEvent("info", { event: "signin.success", method: "passkey", userId: result.user.id, address });
  const { cookie } = await signInUser(request, result.user);
  const headers = new Headers({ "Set-Cookie": cookie });
  // The page the browser goes to next shows the sign-in toast (spec section 8).
  if (result.user.mustChangePassword !== 1) headers.append("Set-Cookie", await toastHeader(SIGNED_IN_TOAST));
  return Response.json({ verified: true, user: toPublicUser(result.user) }, { headers });
}

export const loader = () => methodNotAllowed();
