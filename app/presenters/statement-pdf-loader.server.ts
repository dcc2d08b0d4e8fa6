import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdfResponse } from "~/presenters/pdf-kit.server";
import { requireCapability, type Actor, type Capability } from "~/rules/capabilities.server";
import { exportResponse, type BadExport } from "~/utils/csv.server";
import { invariantResponse } from "~/utils/http.server";
import { parseId } from "~/utils/params";

type StatementPdf = { stream: ReadableStream<Uint8Array>; filename: string };

// A statement as a PDF attachment, the client's (docs/decisions/0970) and the agent's (0980)
// alike: who may see it, the id from the address (404 when there is no such one), a bad period
// is a 400.
export function statementPdfLoader(
  capability: Exclude<Capability, "role.switch">,
  notFound: string,
  statementPdf: (actor: Actor, id: number, params: URLSearchParams) => Promise<StatementPdf | BadExport | null>,
) {
  return async function loader({ request, params }: LoaderFunctionArgs) {
    const user = await requireCapability(request, capability);
    const id = parseId(params.id);
    invariantResponse(id, notFound);
    const result = await statementPdf(user, id, new URL(request.url).searchParams);
    invariantResponse(result, notFound);
    return "invalid" in result ? exportResponse(result) : pdfResponse(result.stream, result.filename);
  };
}
