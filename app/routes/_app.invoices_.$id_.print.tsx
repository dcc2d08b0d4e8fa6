import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { InvoiceDocumentView } from "~/components/invoices/invoice-document";
import { useHydrated } from "~/hooks/use-hydrated";
import { loadInvoiceDocument } from "~/presenters/invoice-document.server";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse } from "~/utils/http.server";
import { parseId } from "~/utils/params";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Invoice ${data.doc.invoiceNo} · Print` : "Invoice · Print" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const doc = await loadInvoiceDocument(user, id);
  invariantResponse(doc, "Invoice not found");
  return { doc };
}

export default function PrintInvoicePage() {
  const { doc } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  return (
    <div className="space-y-4">
      <nav className="flex flex-wrap items-center gap-2 print:hidden" aria-label="Invoice actions">
        <Link to="/invoices" className="btn-ghost">
          Back to Invoices
        </Link>
        {/* The browser's own Print works without JavaScript; the button needs it. */}
        {hydrated ? (
          <button type="button" className="btn-primary" onClick={() => window.print()}>
            Print
          </button>
        ) : null}
        <a href={`/invoices/${doc.id}/pdf`} className="btn-outline" download>
          Download PDF
        </a>
      </nav>
      <InvoiceDocumentView doc={doc} />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the invoice. Please try again." />;
}
