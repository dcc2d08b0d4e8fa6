import type { ActionFunctionArgs } from "@remix-run/node";
import { verifyPasskeyRegistration } from "~/models/passkey.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await verifyPasskeyRegistration(user, body);
  if (!result.ok) return jsonError(result.status, result.message, { verified: false });
  return Response.json({ verified: true, passkey: result.passkey, message: "Passkey registered" });
}

export const loader = () => methodNotAllowed();
