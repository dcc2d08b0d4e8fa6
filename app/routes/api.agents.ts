import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createAgent } from "~/models/agent.server";
import {
  agentsPage,
  decodeNameCursor,
  directoryBatches,
  agentFieldsFor,
  viewBatches,
} from "~/models/directory-list.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

// Everyone signed in reads agents (the New Delivery form needs them); managers and admins change them.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const shown = agentFieldsFor(user);
  // With `limit`, a page and the next cursor (X-Next-Cursor, Link rel="next"); without, the
  // whole list, streamed.
  const params = new URL(request.url).searchParams;
  const after = decodeNameCursor(params.get("cursor"));
  if (after === "invalid") return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(viewBatches(directoryBatches(agentsPage), shown));
  const result = await agentsPage(after, limit);
  return pageResponse(request, result.items.map(shown), result.nextCursor);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "agent.manage");
  const result = await createAgent(user, await readJsonBody(request));
  if (!result.ok) return failureJson(result);
  return Response.json(result.agent, { status: 201 });
}
