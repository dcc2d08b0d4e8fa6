import type { LoaderFunctionArgs } from "@remix-run/node";
import { taxMonthExport, taxMonthsExport } from "~/presenters/exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

// Every month's totals, or with ?month= the invoices and credit notes of the month the page has open.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "tax.view");
  const month = new URL(request.url).searchParams.get("month");
  return month ? exportResponse(taxMonthExport(user, month)) : exportResponse(taxMonthsExport(user));
}
