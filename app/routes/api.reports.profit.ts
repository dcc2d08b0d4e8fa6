import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadProfitReport, readProfitQuery } from "~/presenters/reports/profit-report.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";

// GET: the profit and tonnage report (docs/decisions/1270):
// ?from=YYYY-MM&to=YYYY-MM&by=month|agent|client|site[&then=agent|client|site] answers
// {rows, totals}, tons and money as decimal strings; a bad period or grouping is a 400 naming it.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "report.profit");
  const asked = readProfitQuery(new URL(request.url).searchParams);
  if (!asked.ok) return jsonError(400, asked.message, { errors: { [asked.field]: [asked.message] } });
  const { query, rows, totals } = await loadProfitReport(user, asked.query);
  return Response.json({ from: query.from, to: query.to, by: query.by, then: query.then, rows, totals });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}
