import type { LoaderFunctionArgs } from "@remix-run/node";
import { receiptsExport } from "~/presenters/receipts.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  return exportResponse(receiptsExport(user, new URL(request.url).searchParams));
}
