import type { LoaderFunctionArgs } from "@remix-run/node";
import { getBusinessLogo } from "~/models/business.server";
import { invoiceLineBatches, loadInvoiceDocument } from "~/presenters/invoice-document.server";
import { streamInvoicePdf } from "~/presenters/invoice-pdf.server";
import { pdfResponse } from "~/presenters/pdf-kit.server";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { firstBatchRead } from "~/utils/unavailable.server";

// The printable invoice as a PDF attachment, drawn on the server (no browser). The figures and
// the first batch of lines are read before the response starts (a database that is away is a
// 503); the lines are drawn from keyset batches as the download is read (docs/decisions/0951).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const doc = await loadInvoiceDocument(user, id);
  invariantResponse(doc, "Invoice not found");
  const logo = doc.business.logoUrl ? await getBusinessLogo() : null;
  const lines = await firstBatchRead(invoiceLineBatches(user, id));
  const stream = streamInvoicePdf(doc, lines, { logo });
  return pdfResponse(stream, `invoice-${doc.invoiceNo}.pdf`);
}
