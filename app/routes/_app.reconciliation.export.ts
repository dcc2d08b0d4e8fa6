import type { LoaderFunctionArgs } from "@remix-run/node";
import { reconciliationExport, reconciliationMonthExport } from "~/presenters/exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

// The months, or with ?month= the month the page has open.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "reconciliation.view");
  const month = new URL(request.url).searchParams.get("month");
  return month ? exportResponse(reconciliationMonthExport(user, month)) : exportResponse(reconciliationExport(user));
}
