import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdfResponse } from "~/presenters/pdf-kit.server";
import { profitReportPdf } from "~/presenters/reports/profit-pdf.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

// The profit report with its charts as a PDF attachment (docs/decisions/1270); a bad period or
// grouping is a 400.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "report.profit");
  const result = await profitReportPdf(user, new URL(request.url).searchParams);
  return "invalid" in result ? exportResponse(result) : pdfResponse(result.stream, result.filename);
}
