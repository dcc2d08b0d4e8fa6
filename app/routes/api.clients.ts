import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createClient } from "~/models/client.server";
import {
  clientsPage,
  decodeNameCursor,
  directoryBatches,
  clientFieldsFor,
  viewBatches,
} from "~/models/directory-list.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

// Everyone signed in reads clients (the New Delivery form and the edit dialog need them); managers and admins change them.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const shown = clientFieldsFor(user);
  // With `limit`, a page and the next cursor (X-Next-Cursor, Link rel="next"); without, the
  // whole list, streamed.
  const params = new URL(request.url).searchParams;
  const after = decodeNameCursor(params.get("cursor"));
  if (after === "invalid") return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(viewBatches(directoryBatches(clientsPage), shown));
  const result = await clientsPage(after, limit);
  return pageResponse(request, result.items.map(shown), result.nextCursor);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "client.manage");
  const result = await createClient(user, await readJsonBody(request));
  if (!result.ok) return failureJson(result);
  return Response.json(result.client, { status: 201 });
}
