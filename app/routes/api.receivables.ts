import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listReceivables, receivableBatches } from "~/presenters/receivables.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { decodeNameCursor } from "~/models/directory-list.server";

// GET: what every client owes today, aged as on its statement (docs/decisions/0995), by client
// name. With `limit`, a page and the next cursor (X-Next-Cursor, Link rel="next"); without, every
// client with a balance, streamed. The total over every client: GET /api/receivables/totals.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const params = new URL(request.url).searchParams;
  const after = decodeNameCursor(params.get("cursor"));
  if (after === "invalid") return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(receivableBatches(user));
  const page = await listReceivables(user, { after, limit });
  return pageResponse(request, page.items, page.nextCursor);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}
