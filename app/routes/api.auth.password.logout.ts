import type { ActionFunctionArgs } from "@remix-run/node";
import { signOut } from "~/models/sign-in.server";
import { methodNotAllowed } from "~/utils/http.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return Response.json({ success: true }, { headers: { "Set-Cookie": await signOut(request) } });
}

export const loader = () => methodNotAllowed();
