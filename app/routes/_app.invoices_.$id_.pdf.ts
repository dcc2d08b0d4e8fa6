import type { LoaderFunctionArgs } from "@remix-run/node";
import { getBusinessLogo } from "~/models/business.server";
import { loadInvoiceDocument } from "~/presenters/invoice-document.server";
import { renderInvoicePdf } from "~/presenters/invoice-pdf.server";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse } from "~/utils/http.server";
import { parseId } from "~/utils/params";

// The printable invoice as a PDF attachment, drawn on the server (no browser).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const doc = await loadInvoiceDocument(user, id);
  invariantResponse(doc, "Invoice not found");
  const pdf = await renderInvoicePdf(doc, { logo: doc.business.logoUrl ? await getBusinessLogo() : null });
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="invoice-${doc.invoiceNo}.pdf"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
    },
  });
}
