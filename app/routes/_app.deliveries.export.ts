import type { LoaderFunctionArgs } from "@remix-run/node";
import { deliveriesExport } from "~/presenters/exports.server";
import { requireUser } from "~/utils/auth.server";
import { exportResponse } from "~/utils/csv.server";

// Everyone exports deliveries; staff only their own, without rates, costs or profit.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return exportResponse(deliveriesExport(user, new URL(request.url).searchParams));
}
