import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteClient, getClient, updateClient } from "~/models/client.server";
import { clientFieldsFor } from "~/models/directory-list.server";
import { parseId } from "~/utils/params";
import { jsonError, requireUser } from "~/utils/auth.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = parseId(params.id);
  if (!id) return jsonError(400, "Client id must be a number");
  const client = await getClient(id);
  return client ? Response.json(clientFieldsFor(user)(client)) : jsonError(404, "Client not found");
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed();
  const user = await requireCapability(request, "client.manage");
  const id = parseId(params.id);
  if (!id) return jsonError(400, "Client id must be a number");
  if (request.method === "DELETE") {
    const result = await deleteClient(user, id);
    return result.ok ? Response.json({ success: true }) : failureJson(result);
  }
  const result = await updateClient(user, id, await readJsonBody(request));
  if (!result.ok) return failureJson(result);
  return Response.json(result.client);
}
