import type { LoaderFunctionArgs } from "@remix-run/node";
import { receivablesExport } from "~/presenters/exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

// What every client owes today, aged, as CSV, by name (docs/decisions/0995).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  return exportResponse(receivablesExport(user));
}
