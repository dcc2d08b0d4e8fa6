import type { ActionFunctionArgs } from "@remix-run/node";
import { passkeyRegistrationOptions } from "~/models/passkey.server";
import { requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return methodNotAllowed();
  return Response.json(await passkeyRegistrationOptions(user));
}

export const loader = () => methodNotAllowed();
