import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createAgent, listAgents } from "~/models/agent.server";
import { jsonError, requireRole, requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";

// Everyone signed in reads agents (the New Delivery form needs them); managers and admins change them.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return Response.json(await listAgents());
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  await requireRole(request, ["manager", "admin"]);
  const result = await createAgent(await readJsonBody(request));
  if (!result.ok) return jsonError(result.status, result.message, { errors: result.fieldErrors });
  return Response.json(result.agent, { status: 201 });
}
