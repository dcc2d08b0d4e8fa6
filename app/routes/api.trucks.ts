import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { readDirectorySearch, viewBatches } from "~/models/directory-list.server";
import { createTruck, readTruckCursor, truckBatches, trucksPage, truckView } from "~/models/truck.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { failureJson } from "~/utils/result.server";

// The truck register as JSON (docs/decisions/1200), for managers and admins: in plate order, `q`
// the start of a plate. With `limit`, a page and the next cursor (X-Next-Cursor, Link rel="next");
// without, the whole list, streamed in batches (docs/decisions/0502).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "truck.manage");
  const params = new URL(request.url).searchParams;
  const after = readTruckCursor(params.get("cursor"));
  if (after === "invalid") return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  const search = readDirectorySearch(params);
  if (limit === null) return streamJsonArray(viewBatches(truckBatches(search), truckView));
  const page = await trucksPage({ search, after, direction: "next" }, limit);
  return pageResponse(request, page.items, page.nextCursor);
}

/** `{ plate, transporter?, phone?, usualTareKg? }` → 201 with the truck; a plate registered → 409 with its truckId. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "truck.manage");
  const result = await createTruck(user, await readJsonBody(request));
  if (!result.ok) return failureJson(result, "truckId" in result ? { truckId: result.truckId } : undefined);
  return Response.json(truckView(result.truck), { status: 201 });
}
