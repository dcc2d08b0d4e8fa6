import type { LoaderFunctionArgs } from "@remix-run/node";
import { AUDIT_PAGE_SIZE, listAuditEvents, parseAuditFilters } from "~/models/audit.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { badLimit, pageResponse, readLimit } from "~/utils/json-list.server";
import { readPageRequest } from "~/utils/params";

/**
 * GET /api/audit: the trail newest first, one keyset page (`limit`, default 50, at most 500;
 * the next page's cursor in X-Next-Cursor), with the filters of /audit: entity, entityId,
 * actor (e-mail or user id), action, from, to (days in APP_TIME_ZONE). Never the whole table.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "audit.view");
  const params = new URL(request.url).searchParams;
  const { filters, invalid } = parseAuditFilters(params);
  if (invalid) return jsonError(400, `The ${invalid} filter is not valid`);
  const page = readPageRequest(params, "id");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  const result = await listAuditEvents(user, filters, { limit: limit ?? AUDIT_PAGE_SIZE, page });
  return pageResponse(request, result.events, result.olderCursor);
}
