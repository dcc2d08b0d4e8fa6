import type { LoaderFunctionArgs } from "@remix-run/node";
import { clientStatementExport } from "~/presenters/statement-exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";
import { invariantResponse } from "~/utils/http.server";
import { parseId } from "~/utils/params";

// A client's statement of account as CSV (docs/decisions/0970): a bad period is a 400.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const id = parseId(params.id);
  invariantResponse(id, "Client not found");
  const result = await clientStatementExport(user, id, new URL(request.url).searchParams);
  invariantResponse(result, "Client not found");
  return exportResponse(result);
}
