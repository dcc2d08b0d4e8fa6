import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createClient, listClients } from "~/models/client.server";
import { jsonError, requireRole, requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";

// Everyone signed in reads clients (the New Delivery form and the edit dialog need them); managers and admins change them.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return Response.json(await listClients());
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  await requireRole(request, ["manager", "admin"]);
  const result = await createClient(await readJsonBody(request));
  if (!result.ok) return jsonError(result.status, result.message, { errors: result.fieldErrors });
  return Response.json(result.client, { status: 201 });
}
