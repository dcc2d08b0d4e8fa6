import { redirectDocument, type LoaderFunctionArgs } from "@remix-run/node";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { InvoiceDocumentView, InvoiceLineRows } from "~/components/invoices/invoice-document";
import { PageHtml } from "~/components/page-html";
import {
  invoiceLineBatches,
  loadInvoiceDocument,
  type InvoiceDocument,
  type InvoiceLine,
} from "~/presenters/invoice-document.server";
import { requireCapability } from "~/rules/capabilities.server";
import { readTheme } from "~/utils/cookies.server";
import { invariantResponse } from "~/utils/http.server";
import { logEvent, safeError } from "~/utils/logger.server";
import { parseId } from "~/utils/params";
import { streamBatches } from "~/utils/batches.server";
import { firstBatchRead } from "~/utils/unavailable.server";
import stylesheet from "~/tailwind.css";

// The printable invoice (docs/decisions/0951): a document written on the
// server and streamed, not a page of the app. A month's invoice has thousands of lines; as
// loader data each went out twice (in the HTML and in the hydration data) and was rendered in
// one go. Here the figures and the first batch of lines are read first (a database that is away
// is still a 503, before any byte), then the page is written up to its table's body, the rows a
// keyset batch at a time as the browser reads, then the totals. No hydration data and no React
// in the browser: the only script is the Print button's, under the page's CSP nonce; without it
// the browser's own Print prints the same page.

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  // A link followed inside the app (the Invoices list's Print) fetches this URL as page data;
  // it is a document: the app is told to load it as one, and the browser asks again. After the
  // guard, so a user who may not print is refused here rather than sent round once more. Only
  // the router's `.data` request is sent round: a script's fetch (Node's says
  // `Sec-Fetch-Mode: cors`) gets the document, where it was redirected to itself until it gave up.
  if (context?.pageDataRequest === true) return redirectDocument(documentUrl(request));
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const doc = await loadInvoiceDocument(user, id);
  invariantResponse(doc, "Invoice not found");
  const nonce = typeof context?.cspNonce === "string" ? context.cspNonce : undefined;
  const theme = readTheme(request);
  const { head, tail } = documentAround(doc, theme, nonce);
  const batches = await firstBatchRead(invoiceLineBatches(user, id));
  return new Response(streamDocument(head, batches, tail, request), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" },
  });
}

/** This URL without the router's own parameter. */
function documentUrl(request: Request) {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  return `${url.pathname}${url.search}`;
}

/** Where the rows go: the document is rendered with an empty table body and cut there. */
const BODY = "<tbody></tbody>";

/** The page before the rows (up to `<tbody>`) and after them (from `</tbody>`). */
function documentAround(doc: InvoiceDocument, theme: "light" | "dark", nonce: string | undefined) {
  const html = `<!DOCTYPE html>${renderToStaticMarkup(
    <PrintPage title={`Invoice ${doc.invoiceNo} · Print`} theme={theme}>
      <div className="flex flex-col gap-4 print:block">
        <nav className="flex flex-wrap items-center gap-2 print:hidden" aria-label="Invoice actions">
          <a href="/invoices" className="btn-ghost">
            Back to Invoices
          </a>
          {/* The browser's own Print works without JavaScript; the button needs it. */}
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PRINT_BUTTON }} />
          <a href={`/invoices/${doc.id}/pdf`} className="btn-outline" download>
            Download PDF
          </a>
        </nav>
        <InvoiceDocumentView doc={doc} />
      </div>
    </PrintPage>,
  )}`;
  const at = html.indexOf(BODY);
  if (at < 0 || html.indexOf(BODY, at + 1) >= 0) throw new Error("The invoice document has no single empty table body");
  const cut = at + "<tbody>".length;
  return { head: html.slice(0, cut), tail: html.slice(cut) };
}

/** Puts a Print button where the script stands, once the page's JavaScript runs. */
const PRINT_BUTTON =
  '(()=>{const b=document.createElement("button");b.type="button";b.className="btn-primary";b.textContent="Print";' +
  'b.addEventListener("click",()=>window.print());document.currentScript.replaceWith(b)})()';

/** The page around the document: the app's stylesheet (print rules included) and theme, no app chrome. */
function PrintPage({ title, theme, children }: { title: string; theme: "light" | "dark"; children: ReactNode }) {
  return (
    <PageHtml
      theme={theme}
      bodyClassName="min-h-screen print:min-h-0"
      head={
        <>
          <title>{title}</title>
          <link rel="stylesheet" href={stylesheet} />
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        </>
      }
    >
      <main className="p-2 sm:p-4 md:p-6 print:p-0">{children}</main>
    </PageHtml>
  );
}

/**
 * The page as a stream: `head`, then the rows of each batch as the browser reads (the next
 * batch is read only when the last was taken), then `tail`. A failure past the head cannot
 * change the status any more: the page says, where the rows stop, that it is incomplete, and
 * ends without the totals.
 */
function streamDocument(head: string, batches: AsyncIterable<InvoiceLine[]>, tail: string, request: Request) {
  let rows = 0;
  return streamBatches(batches, {
    head,
    write: (lines) => {
      rows += lines.length;
      return renderToStaticMarkup(<InvoiceLineRows lines={lines} />);
    },
    tail,
    failed: (error) => {
      logEvent("error", { event: "error.stream", route: new URL(request.url).pathname, error: safeError(error) });
      return incomplete(rows);
    },
  });
}

/** Closes the table where the rows stopped and says so, on screen and on paper. */
function incomplete(rows: number) {
  return `</tbody></table></div>${renderToStaticMarkup(
    <p role="alert" className="mt-4 rounded border border-red-300 px-3 py-2 font-semibold text-red-700">
      This invoice stopped loading after {rows} {rows === 1 ? "line" : "lines"}. Do not print it: reload the page.
    </p>,
  )}</article></div></main></body></html>`;
}
