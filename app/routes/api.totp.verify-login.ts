import type { ActionFunctionArgs } from "@remix-run/node";
import { completeRecoveryCodeLogin, completeTotpLogin } from "~/models/totp.server";
import { toPublicUser } from "~/models/user.server";
import { clientAddress } from "~/utils/client-address.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  clientAddress(request, context);
  const body = await readJsonBody(request);
  // `recoveryCode` instead of `token`: a two-factor recovery code (decision 0401).
  const result =
    body.recoveryCode !== undefined
      ? await completeRecoveryCodeLogin(request, body.recoveryCode)
      : await completeTotpLogin(request, body.token);
  if (!result.ok) {
    const response = failureJson(result);
    if (result.cookie) response.headers.append("Set-Cookie", result.cookie);
    return response;
  }
  return Response.json(toPublicUser(result.user), { headers: { "Set-Cookie": result.cookie } });
}

export const loader = () => methodNotAllowed();
