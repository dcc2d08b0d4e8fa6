import type { LoaderFunctionArgs } from "@remix-run/node";
import { profitReportExport } from "~/presenters/reports/profit-export.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

// The profit report as shown, as CSV (docs/decisions/1270); a bad period or grouping is a 400.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "report.profit");
  return exportResponse(await profitReportExport(user, new URL(request.url).searchParams));
}
