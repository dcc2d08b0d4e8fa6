import type { LoaderFunctionArgs } from "@remix-run/node";
import { getPeriodState } from "~/models/period.server";
import { requireCapability } from "~/rules/capabilities.server";

/** GET /api/periods: through which month the books are closed (docs/decisions/0901). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "period.close");
  return Response.json(await getPeriodState(user));
}
