import type { ActionFunctionArgs } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import { bindingHash, passkeyAuthenticationOptions } from "~/models/passkey.server";
import { clientAddress } from "~/utils/client-address.server";
import { passkeyBindingCookie } from "~/utils/cookies.server";
import { logEvent } from "~/utils/logger.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";
import { takePasskeyOptions } from "~/utils/throttle.server";

// Unauthenticated, so limited per client address; the challenge is bound to this browser by
// a short-lived cookie and only that browser can answer it.
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const address = clientAddress(request, context);
  const throttle = await takePasskeyOptions(address);
  if (throttle.limited) {
    logEvent("warn", { event: "passkey.options.limited", address });
    const message = "Too many passkey sign-in attempts. Please try again later.";
    return failureJson({ status: 429, message, retryAfterSeconds: throttle.retryAfterSeconds });
  }
  const body = await readJsonBody(request);
  const binding = randomBytes(32).toString("base64url");
  const options = await passkeyAuthenticationOptions(body.email, new Date(), bindingHash(binding));
  return Response.json(options, { headers: { "Set-Cookie": await passkeyBindingCookie().serialize(binding) } });
}

export const loader = () => methodNotAllowed();
