import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdfResponse } from "~/presenters/pdf-kit.server";
import { clientStatementPdf } from "~/presenters/statement-pdf.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";
import { invariantResponse } from "~/utils/http.server";
import { parseId } from "~/utils/params";

// A client's statement of account as a PDF attachment (docs/decisions/0970): a bad period is a 400.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const id = parseId(params.id);
  invariantResponse(id, "Client not found");
  const result = await clientStatementPdf(user, id, new URL(request.url).searchParams);
  invariantResponse(result, "Client not found");
  return "invalid" in result ? exportResponse(result) : pdfResponse(result.stream, result.filename);
}
