import type { ActionFunctionArgs } from "@remix-run/node";
import { passkeyRegistrationOptions } from "~/models/passkey.server";
import { requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";
import { confirmRecentAuth } from "~/models/reauth.server";

// Adding a passkey needs the current password in the body, or a sign-in within five minutes.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return methodNotAllowed();
  const body = await readJsonBody(request);
  const reauth = await confirmRecentAuth(request, user, body.password);
  if (!reauth.ok) return failureJson(reauth);
  return Response.json(await passkeyRegistrationOptions(user));
}

export const loader = () => methodNotAllowed();
