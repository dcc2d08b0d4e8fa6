import type { ActionFunctionArgs } from "@remix-run/node";
import { verifyPasskeyAuthentication } from "~/models/passkey.server";
import { toPublicUser } from "~/models/user.server";
import { jsonError, signInUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { SIGNED_IN_TOAST, toastHeader } from "~/utils/toast.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await verifyPasskeyAuthentication(body.credential);
  if (!result.ok) return jsonError(result.status, result.message, { verified: false });
  const { cookie } = await signInUser(request, result.user);
  const headers = new Headers({ "Set-Cookie": cookie });
  // The page the browser goes to next shows the sign-in toast (spec section 8).
  if (result.user.mustChangePassword !== 1) headers.append("Set-Cookie", await toastHeader(SIGNED_IN_TOAST));
  return Response.json({ verified: true, user: toPublicUser(result.user) }, { headers });
}

export const loader = () => methodNotAllowed();
