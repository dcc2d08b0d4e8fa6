import type { LoaderFunctionArgs } from "@remix-run/node";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { InvoiceDocumentView, InvoiceLineRows } from "~/components/invoices/invoice-document";
import { SharedAgentStatement, SharedClientStatement } from "~/components/sharing/shared-documents";
import { openShareLink, SHARED_HEADERS } from "~/models/share-link.server";
import { loadSharedDocument, type SharedDocument } from "~/presenters/shared-document.server";
import { clientAddress } from "~/utils/client-address.server";
import { deliveriesCount } from "~/utils/plural";
import stylesheet from "~/tailwind.css";

// A shared document (docs/decisions/1260): opened by its link without signing in. Written on the
// server as one small static page: the business and the document, a PDF link, no app navigation,
// no script, no other data. Not indexed, and no referrer leaves it (the token is in its address).

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  const opened = await openShareLink(token, clientAddress(request, context));
  if (!opened.ok) {
    const headers = opened.status === 429 ? { "Retry-After": String(opened.retryAfterSeconds) } : undefined;
    return page(
      opened.status,
      opened.status === 410 ? "Link expired" : "Not found",
      <Notice text={opened.message} />,
      headers,
    );
  }
  const shared = await loadSharedDocument(opened.link);
  if (!shared)
    return page(
      404,
      "Not found",
      <Notice text="There is no document at this address. Check the link you were sent." />,
    );
  return page(200, titleOf(shared), <Shared shared={shared} pdf={`/s/${token}/pdf`} />);
}

function titleOf(shared: SharedDocument) {
  if (shared.kind === "invoice") return `Invoice ${shared.doc.invoiceNo}`;
  if (shared.kind === "client-statement") return `Statement · ${shared.statement.client.name}`;
  return `Agent statement · ${shared.statement.agent.name}`;
}

function Shared({ shared, pdf }: { shared: SharedDocument; pdf: string }) {
  return (
    <>
      <p className="mb-3 flex flex-wrap items-center justify-between gap-2 print:hidden">
        <span className="text-slate-600">Shared with you read-only.</span>
        <a href={pdf} className="btn-primary" download>
          Download PDF
        </a>
      </p>
      {shared.kind === "invoice" ? (
        <>
          <InvoiceDocumentView doc={shared.doc}>
            <InvoiceLineRows lines={shared.lines} />
          </InvoiceDocumentView>
          {shared.doc.lineCount > shared.lines.length ? (
            <p className="mx-auto mt-2 max-w-[210mm] text-slate-600">
              The first {deliveriesCount(shared.lines.length)} of {shared.doc.lineCount} are shown; the PDF has them
              all.
            </p>
          ) : null}
        </>
      ) : shared.kind === "client-statement" ? (
        <SharedClientStatement statement={shared.statement} business={shared.business} />
      ) : (
        <SharedAgentStatement statement={shared.statement} business={shared.business} />
      )}
    </>
  );
}

function Notice({ text }: { text: string }) {
  return (
    <p role="alert" className="mx-auto mt-16 max-w-md rounded border border-slate-300 bg-white p-4 text-center">
      {text}
    </p>
  );
}

/** The whole page: light, as paper; its own head (no app chrome, no scripts). */
function page(status: number, title: string, body: ReactNode, headers?: Record<string, string>) {
  const html = `<!DOCTYPE html>${renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <meta name="color-scheme" content="light" />
        <title>{title}</title>
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body className="min-h-screen bg-slate-100 text-[13px] text-slate-900">
        <main className="mx-auto max-w-[210mm] p-2 sm:p-6">{body}</main>
      </body>
    </html>,
  )}`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", ...SHARED_HEADERS, ...headers },
  });
}
