import type { ActionFunctionArgs } from "@remix-run/node";
import { verifyPasskeyAuthentication } from "~/models/passkey.server";
import { toPublicUser } from "~/models/user.server";
import { jsonError, signInUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await verifyPasskeyAuthentication(body.credential);
  if (!result.ok) return jsonError(result.status, result.message, { verified: false });
  const { cookie } = await signInUser(request, result.user);
  return Response.json({ verified: true, user: toPublicUser(result.user) }, { headers: { "Set-Cookie": cookie } });
}

export const loader = () => methodNotAllowed();
