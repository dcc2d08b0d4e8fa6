import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteAgent, getAgent, updateAgent } from "~/models/agent.server";
import { agentFieldsFor } from "~/models/directory-list.server";
import { parseId } from "~/utils/params";
import { jsonError, requireUser } from "~/utils/auth.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = parseId(params.id);
  if (!id) return jsonError(400, "Agent id must be a number");
  const agent = await getAgent(id);
  return agent ? Response.json(agentFieldsFor(user)(agent)) : jsonError(404, "Agent not found");
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed();
  const user = await requireCapability(request, "agent.manage");
  const id = parseId(params.id);
  if (!id) return jsonError(400, "Agent id must be a number");
  if (request.method === "DELETE") {
    const result = await deleteAgent(user, id);
    return result.ok ? Response.json({ success: true }) : failureJson(result);
  }
  const result = await updateAgent(user, id, await readJsonBody(request));
  if (!result.ok) return failureJson(result);
  return Response.json(result.agent);
}
