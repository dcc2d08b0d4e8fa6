// The document a share link opens (docs/decisions/1260), read for the link and nothing else: the
// one invoice, client or agent it names, through the same presenters as the signed-in pages and
// PDFs, so a shared document and the office's copy cannot disagree.
import { getBusinessDetails, getBusinessLogo, type BusinessDetailsView } from "~/models/business.server";
import { linkReader, type OpenedLink } from "~/models/share-link.server";
import { agentStatement, type AgentStatement } from "~/presenters/agent-statement.server";
import { clientStatement, type Statement } from "~/presenters/client-statement.server";
import {
  invoiceLineBatches,
  loadInvoiceDocument,
  type InvoiceDocument,
  type InvoiceLine,
} from "~/presenters/invoice-document.server";
import { streamInvoicePdf } from "~/presenters/invoice-pdf.server";
import { agentStatementPdf, clientStatementPdf } from "~/presenters/statement-pdf.server";
import type { StatementPeriod } from "~/schemas/statement-query.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { firstBatchRead } from "~/utils/unavailable.server";

/** Lines a shared page shows at most; the PDF has them all. Keeps the page small on a phone's data. */
export const SHARED_PAGE_LINES = 50;

/** A shared statement's period: from the first of the month three months back to today (business zone). */
export function sharedPeriod(now = new Date()): StatementPeriod {
  const today = todayIn(env().APP_TIME_ZONE, now);
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7)) - 3;
  const [y, m] = month >= 1 ? [year, month] : [year - 1, month + 12];
  return { from: `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-01`, to: today };
}

export type SharedDocument =
  | { kind: "invoice"; doc: InvoiceDocument; lines: InvoiceLine[] }
  | { kind: "client-statement"; statement: Statement; business: BusinessDetailsView }
  | { kind: "agent-statement"; statement: AgentStatement; business: BusinessDetailsView };

/** The shared page's figures; null when the subject is gone. */
export async function loadSharedDocument(link: OpenedLink, now = new Date()): Promise<SharedDocument | null> {
  const reader = linkReader(link);
  switch (link.scope) {
    case "invoice": {
      const doc = await loadInvoiceDocument(reader, link.subjectId, now);
      if (!doc) return null;
      const batches = invoiceLineBatches(reader, link.subjectId, SHARED_PAGE_LINES);
      const first = await batches.next();
      await batches.return(undefined);
      // No logo on the page: it would be most of the page's bytes (it is in the PDF).
      return {
        kind: "invoice",
        doc: { ...doc, business: { ...doc.business, logoUrl: null } },
        lines: first.value ?? [],
      };
    }
    case "client-statement": {
      const business = await getBusinessDetails();
      const result = await clientStatement(reader, link.subjectId, sharedPeriod(now), null, SHARED_PAGE_LINES);
      return result.ok ? { kind: "client-statement", statement: result.statement, business } : null;
    }
    case "agent-statement": {
      const business = await getBusinessDetails();
      const result = await agentStatement(reader, link.subjectId, sharedPeriod(now), null, SHARED_PAGE_LINES);
      return result.ok ? { kind: "agent-statement", statement: result.statement, business } : null;
    }
  }
}

/** The shared document's PDF, every line; null when the subject is gone. */
export async function sharedPdf(
  link: OpenedLink,
  now = new Date(),
): Promise<{ stream: ReadableStream<Uint8Array>; filename: string } | null> {
  const reader = linkReader(link);
  if (link.scope === "invoice") {
    const doc = await loadInvoiceDocument(reader, link.subjectId, now);
    if (!doc) return null;
    const logo = doc.business.logoUrl ? await getBusinessLogo() : null;
    const lines = await firstBatchRead(invoiceLineBatches(reader, link.subjectId));
    return { stream: streamInvoicePdf(doc, lines, { logo }), filename: `invoice-${doc.invoiceNo}.pdf` };
  }
  const period = sharedPeriod(now);
  const params = new URLSearchParams(period);
  const pdf = link.scope === "client-statement" ? clientStatementPdf : agentStatementPdf;
  const result = await pdf(reader, link.subjectId, params, now);
  return result && !("invalid" in result) ? result : null;
}
