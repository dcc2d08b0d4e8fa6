import type { ActionFunctionArgs } from "@remix-run/node";
import { passkeyAuthenticationOptions } from "~/models/passkey.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = await readJsonBody(request);
  return Response.json(await passkeyAuthenticationOptions(body.email));
}

export const loader = () => methodNotAllowed();
