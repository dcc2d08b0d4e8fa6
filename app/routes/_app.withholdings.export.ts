import type { LoaderFunctionArgs } from "@remix-run/node";
import { withholdingsExport } from "~/presenters/withholdings.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  return exportResponse(withholdingsExport(user, new URL(request.url).searchParams));
}
