import type { ActionFunctionArgs } from "@remix-run/node";
import { deletePasskey } from "~/models/passkey.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { logEvent } from "~/utils/logger.server";
import { parseId } from "~/utils/params";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";
import { confirmRecentAuth } from "~/models/reauth.server";

// Removing a passkey needs the current password in the body, or a sign-in within five minutes.
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "DELETE") return methodNotAllowed();
  const body = await readJsonBody(request);
  const reauth = await confirmRecentAuth(request, user, body.password);
  if (!reauth.ok) return failureJson(reauth);
  if (!(await deletePasskey(user.id, parseId(params.id) ?? 0))) return jsonError(404, "Passkey not found");
  logEvent("info", { event: "factor.passkey.removed", userId: user.id, passkeyId: params.id });
  return Response.json({ message: "Passkey deleted successfully" });
}

export const loader = () => methodNotAllowed();
