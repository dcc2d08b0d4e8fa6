import type { LoaderFunctionArgs } from "@remix-run/node";
import { listWithholdings, parseWithholdingFilters, withholdingBatches } from "~/presenters/withholdings.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { readPageRequest } from "~/utils/params";

// What clients withheld (docs/decisions/1240): `status=outstanding|received`, `clientId`, `from`,
// `to`; `limit` and `cursor` give a page, without `limit` every row, streamed.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const params = new URL(request.url).searchParams;
  const { filters, invalid } = parseWithholdingFilters(params);
  if (invalid) return jsonError(400, invalid);
  const page = readPageRequest(params, "date");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(withholdingBatches(user, filters));
  const result = await listWithholdings(user, filters, { limit, page });
  return pageResponse(request, result.items, result.olderCursor);
}
