import type { LoaderFunctionArgs } from "@remix-run/node";
import { invoicesExport } from "~/presenters/exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  return exportResponse(invoicesExport(user, new URL(request.url).searchParams));
}
