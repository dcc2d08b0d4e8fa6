import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditExport } from "~/presenters/exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "audit.view");
  return exportResponse(auditExport(user, new URL(request.url).searchParams));
}
