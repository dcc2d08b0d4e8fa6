import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  loadProfitReport,
  profitRowBatches,
  profitTotals,
  readProfitCursor,
  readProfitQuery,
} from "~/presenters/reports/profit-report.server";
import { getDb } from "~/db.server";
import { assertCan, requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { streamBatches } from "~/utils/batches.server";
import { methodNotAllowed } from "~/utils/http.server";
import { readLimit } from "~/utils/json-list.server";
import { firstBatchRead } from "~/utils/unavailable.server";

// GET: the profit and tonnage report (docs/decisions/1270):
// ?from=YYYY-MM&to=YYYY-MM&by=month|agent|client|site[&then=agent|client|site] answers
// {from, to, by, then, rows, totals, nextCursor}, tons and money as decimal strings; totals are
// always the whole period's. With `limit` (1..500) one keyset page of rows and `nextCursor` for
// `?cursor=` (null on the last page); without, every row, streamed a batch at a time. A bad
// period, grouping, limit or cursor is a 400 naming it.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "report.profit");
  const params = new URL(request.url).searchParams;
  const asked = readProfitQuery(params);
  if (!asked.ok) return jsonError(400, asked.message, { errors: { [asked.field]: [asked.message] } });
  const limit = readLimit(params);
  if (limit === "invalid") {
    const message = "limit must be a whole number from 1 to 500";
    return jsonError(400, message, { errors: { limit: [message] } });
  }
  const cursor = readProfitCursor(asked.query, params);
  if (!cursor.ok) return jsonError(400, cursor.message, { errors: { cursor: [cursor.message] } });
  const { query } = asked;
  const head = { from: query.from, to: query.to, by: query.by, then: query.then };
  if (limit !== null || cursor.cursor !== null) {
    const { rows, totals, nextCursor } = await loadProfitReport(user, query, {
      cursor: cursor.cursor,
      limit: limit ?? 500,
    });
    return Response.json({ ...head, rows, totals, nextCursor });
  }
  assertCan(user, "report.profit", "reports/profit");
  const { totals } = await profitTotals(await getDb(), query);
  const batches = await firstBatchRead(profitRowBatches(user, query));
  let first = true;
  const body = streamBatches(batches, {
    head: `${JSON.stringify({ ...head, totals, nextCursor: null }).slice(0, -1)},"rows":[`,
    write: (rows) => {
      let chunk = "";
      for (const row of rows) {
        chunk += (first ? "" : ",") + JSON.stringify(row);
        first = false;
      }
      return chunk;
    },
    tail: "]}",
  });
  return new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}
