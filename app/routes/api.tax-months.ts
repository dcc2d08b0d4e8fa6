import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { isMonth, readMonthPage } from "~/presenters/reconciliation.server";
import { listTaxMonths, taxMonth } from "~/presenters/tax-report.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { pageResponse } from "~/utils/json-list.server";

// GET: the tax report (docs/decisions/0990). Without `month`, 12 months a page, newest first,
// the next page's cursor (a month, "YYYY-MM") in X-Next-Cursor and Link rel="next"; with
// `month=YYYY-MM`, that month by tax rate and its total, and what clients withheld in it (404 when
// it has no invoice, credit note or withholding).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "tax.view");
  const params = new URL(request.url).searchParams;
  const month = params.get("month");
  if (month !== null) {
    if (!isMonth(month)) return jsonError(400, "month must be YYYY-MM");
    const report = await taxMonth(user, month);
    return report ? Response.json(report) : jsonError(404, "No invoices, credit notes or withholdings in that month");
  }
  for (const name of ["cursor", "before"]) {
    const value = params.get(name);
    if (value !== null && !isMonth(value)) return jsonError(400, "The cursor is not valid");
  }
  const page = await listTaxMonths(user, readMonthPage(params));
  return pageResponse(request, page.months, page.olderCursor);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}
