import type { ActionFunctionArgs } from "@remix-run/node";
import { toPublicUser } from "~/models/user.server";
import { attemptPasswordLogin } from "~/models/sign-in.server";
import { startSession } from "~/utils/auth.server";
import { clientAddress } from "~/utils/client-address.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await attemptPasswordLogin(body.email, body.password, clientAddress(request, context));
  if (result.kind === "error") return failureJson(result);
  const { cookie } = await startSession(request, result);
  const headers = { "Set-Cookie": cookie };
  if (result.kind === "totp-required") return Response.json({ requiresTOTP: true }, { headers });
  return Response.json({ ...toPublicUser(result.user), requiresTOTP: false }, { headers });
}

export const loader = () => methodNotAllowed();
