import type { LoaderFunctionArgs } from "@remix-run/node";
import { openShareLink, SHARED_HEADERS } from "~/models/share-link.server";
import { pdfResponse } from "~/presenters/pdf-kit.server";
import { sharedPdf } from "~/presenters/shared-document.server";
import { clientAddress } from "~/utils/client-address.server";

// A shared document's PDF (docs/decisions/1260): the same link, the same answers when it does not
// open (404, 410, 429), every line of the document. Not counted as a second view.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const opened = await openShareLink(params.token ?? "", clientAddress(request, context), { count: false });
  if (!opened.ok) {
    return new Response(opened.message, {
      status: opened.status,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        ...SHARED_HEADERS,
        ...(opened.status === 429 ? { "Retry-After": String(opened.retryAfterSeconds) } : {}),
      },
    });
  }
  const pdf = await sharedPdf(opened.link);
  if (!pdf) return new Response("Not found", { status: 404, headers: SHARED_HEADERS });
  const response = pdfResponse(pdf.stream, pdf.filename);
  for (const [name, value] of Object.entries(SHARED_HEADERS)) response.headers.set(name, value);
  return response;
}
