// Statements as PDF (docs/decisions/0970 and 0980): a ledger document
// drawn with the letterhead and fonts of pdf-kit.server.ts, used by the client statement of
// account and the agent statement.
//
//   renderLedgerPdf(ledger) -> ReadableStream of the PDF's bytes
//
// `ledger` says what to draw: the title and facts of the letterhead, a party block (BILL TO /
// AGENT), summary figures (label, value), the columns of the table and its rows as an async
// iterable of batches of cell texts (the caller feeds keyset pages, so a five-year statement is
// never in memory at once), a closing row, and an optional box of figures (the ageing). Pages
// break with the column header repeated and "Page n" in the footer; each page is written out
// to the response as it is finished.
import {
  AGENT_LINE_TYPES,
  payoutStatusText,
  reversalText,
  clientLineReference,
  clientLineType,
  isDebitLine,
} from "~/utils/money-line-words";
import {
  agentStatementDownload,
  type AgentStatement,
  type AgentStatementLine,
} from "~/presenters/agent-statement.server";
import {
  getBusinessDetails,
  getBusinessLogo,
  type BusinessDetailsView,
  type BusinessLogo,
} from "~/models/business.server";
import { clientStatementDownload, type Statement, type StatementLine } from "~/presenters/client-statement.server";
import { parseStatementPeriod } from "~/schemas/statement-query.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { AGEING_BUCKETS, AGEING_LABELS } from "~/rules/ageing";
import { PAYOUT_METHOD_LABELS } from "~/schemas/settlements";
import { payBasisLabel } from "~/utils/pay-basis";
import type { BadExport } from "~/utils/csv.server";
import { formatDate } from "~/utils/dates";
import { formatAmount, formatNaira, formatTons } from "~/utils/money";
import { deliveriesCount } from "~/utils/plural";
import {
  CONTENT,
  createDocument,
  fit,
  frame,
  GREY,
  label,
  letterhead,
  line,
  MARGIN,
  paragraph,
  streamPdf,
  tableHeader,
  textWidth,
  wrapped,
  type Column,
  type Doc,
} from "./pdf-kit.server";

type LedgerColumn = Column;

export type Ledger = {
  /** The letterhead's title, e.g. "STATEMENT". */
  title: string;
  /** The PDF's own title and subject (its properties). */
  documentTitle: string;
  business: BusinessDetailsView;
  logo?: BusinessLogo | null;
  /** Right of the letterhead: (label, value); the first is bold. */
  facts: [string, string][];
  party: { label: string; name: string; lines: string[] };
  summary: [string, string][];
  /** Their widths add up to the page's content width (LEDGER_WIDTH, or LEDGER_WIDE in landscape). */
  columns: LedgerColumn[];
  /** Landscape for wide tables (the agent statement's eleven columns). */
  landscape?: boolean;
  rows: AsyncIterable<string[][]>;
  /** The last row, in bold: a label and the figure of the last column. */
  closing: [string, string];
  box?: { title: string; figures: [string, string][] };
  /** The footer's text before "Page n". */
  footer: string;
};

/** The page's usable width for columns, portrait and landscape (A4: 841.89 points wide lying down). */
const LEDGER_WIDTH = CONTENT;
const LEDGER_WIDE = 841.89 - 2 * MARGIN;

const ROW = 14;
const SIZE = 8;

const header = (doc: Doc, columns: LedgerColumn[], y: number) =>
  tableHeader(doc, columns, y, { size: 6.5, rowHeight: ROW, inset: 3 });

const FOOTER = { size: 7.5, color: GREY } as const;

function footer(doc: Doc, text: string, page: number) {
  // Drawn inside the bottom margin: pdfkit would open a new page for text below it.
  const { content, height } = frame(doc);
  const bottomMargin = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  // The text (a party's name in it) gives way to the page number.
  const pageNo = ` · Page ${page}`;
  const fitted = fit(doc, text, content - textWidth(doc, pageNo, FOOTER), FOOTER);
  line(doc, `${fitted}${pageNo}`, MARGIN, height - MARGIN, { ...FOOTER, align: "right", width: content });
  doc.page.margins.bottom = bottomMargin;
}

function row(doc: Doc, columns: LedgerColumn[], cells: string[], y: number) {
  let x = MARGIN;
  columns.forEach((c, i) => {
    const text = c.align === "left" ? fit(doc, cells[i] ?? "", c.width - 5, { size: SIZE }) : (cells[i] ?? "");
    line(doc, text, x + (c.align === "left" ? 0 : -3), y, { size: SIZE, align: c.align, width: c.width });
    x += c.width;
  });
}

/** The party block's width (its name, address, phone), left of the summary figures. */
const PARTY_WIDTH = 250;

async function draw(doc: Doc, ledger: Ledger, readerCaughtUp: () => Promise<void>) {
  const { right: RIGHT, content: CONTENT_WIDTH, bottom: BOTTOM } = frame(doc);
  let page = 1;
  const top = letterhead(doc, ledger.business, ledger.logo, ledger.title, ledger.facts);
  let y = top;
  label(doc, ledger.party.label, MARGIN, y);
  y += 11;
  y += wrapped(doc, ledger.party.name, MARGIN, y, {
    size: 10,
    weight: "bold",
    width: PARTY_WIDTH,
    maxLines: 2,
    lineHeight: 14,
  });
  for (const text of ledger.party.lines) y += paragraph(doc, text, MARGIN, y, PARTY_WIDTH);

  // The summary figures, right of the party block.
  let sy = top;
  for (const [name, value] of ledger.summary) {
    line(doc, name, RIGHT - 250, sy, { color: GREY, width: 150 });
    line(doc, value, RIGHT - 110, sy, { weight: "bold", align: "right", width: 110 });
    sy += 13;
  }
  y = Math.max(y, sy) + 12;

  const newPage = () => {
    footer(doc, ledger.footer, page);
    doc.addPage();
    page += 1;
    return header(doc, ledger.columns, MARGIN);
  };
  y = header(doc, ledger.columns, y);
  for await (const batch of ledger.rows) {
    for (const cells of batch) {
      if (y + ROW > BOTTOM) y = newPage();
      row(doc, ledger.columns, cells, y);
      y += ROW;
      doc
        .moveTo(MARGIN, y - 3)
        .lineTo(RIGHT, y - 3)
        .lineWidth(0.3)
        .strokeColor("#e2e8f0")
        .stroke();
    }
    // The next batch is read only once the reader has taken what is drawn: a slow download of
    // five years holds about a batch of pages in memory, not the whole document (decision 0970;
    // `streamPdf`).
    await readerCaughtUp();
  }
  if (y + ROW > BOTTOM) y = newPage();
  // The closing row: its label across every column but the last, its figure in the last.
  const last = ledger.columns[ledger.columns.length - 1];
  line(doc, ledger.closing[0], MARGIN, y + 2, { size: SIZE, weight: "bold" });
  line(doc, ledger.closing[1], RIGHT - last.width - 3, y + 2, {
    size: SIZE,
    weight: "bold",
    align: "right",
    width: last.width,
  });
  y += ROW + 16;

  if (ledger.box) {
    const { title, figures } = ledger.box;
    if (y + 50 > BOTTOM) {
      footer(doc, ledger.footer, page);
      doc.addPage();
      page += 1;
      y = MARGIN;
    }
    label(doc, title.toUpperCase(), MARGIN, y);
    y += 12;
    const width = CONTENT_WIDTH / figures.length;
    figures.forEach(([name, value], i) => {
      const x = MARGIN + i * width;
      line(doc, name, x, y, { size: 7.5, color: GREY, width: width - 6 });
      line(doc, value, x, y + 11, { size: 9, weight: "bold", width: width - 6 });
    });
  }
  footer(doc, ledger.footer, page);
}

/** The ledger as a stream of PDF bytes; an error while drawing fails the stream (the download), never silently. */
export function renderLedgerPdf(ledger: Ledger, { compress = true }: { compress?: boolean } = {}) {
  const doc = createDocument(
    { Title: ledger.documentTitle, Author: ledger.business.companyName ?? "PKS", Subject: ledger.documentTitle },
    { compress, layout: ledger.landscape ? "landscape" : "portrait" },
  );
  return streamPdf(doc, (readerCaughtUp) => draw(doc, ledger, readerCaughtUp));
}

// ---- The two statements.

type StatementPdf = { stream: ReadableStream<Uint8Array>; filename: string };

/** The client statement's columns, portrait: they fill the ledger's width. */
export const CLIENT_STATEMENT_COLUMNS: LedgerColumn[] = [
  { title: "Date", width: 62, align: "left" },
  { title: "Type", width: 80, align: "left" },
  { title: "Reference", width: 95, align: "left" },
  { title: "Invoice", width: 55, align: "left" },
  { title: "Debit (₦)", width: 72, align: "right" },
  { title: "Credit (₦)", width: 72, align: "right" },
  { title: "Balance (₦)", width: LEDGER_WIDTH - 436, align: "right" },
];

/** The agent statement's eleven columns, landscape; the last, Owed, is the running figure. */
export const AGENT_STATEMENT_COLUMNS: LedgerColumn[] = [
  { title: "Date", width: 58, align: "left" },
  { title: "Truck / method", width: 100, align: "left" },
  { title: "Location / reference", width: 100, align: "left" },
  // Each delivery's weight on the basis it was recorded with (docs/decisions/1220).
  { title: "Tons paid", width: 50, align: "right" },
  { title: "Rate (₦)", width: 58, align: "right" },
  { title: "Gross (₦)", width: 64, align: "right" },
  { title: "Offloading (₦)", width: 60, align: "right" },
  { title: "Mobilization (₦)", width: 64, align: "right" },
  { title: "Net payable (₦)", width: 68, align: "right" },
  { title: "Paid out (₦)", width: 64, align: "right" },
  { title: "Owed (₦)", width: LEDGER_WIDE - 686, align: "right" },
];

/**
 * The row a ledger opens with (the opening balance, "Owed at start"): its date and label in the
 * first two columns and its figure in the last, the running figure's column, as on the page and
 * in the CSV; one cell for every column.
 */
export function openingRow(columns: readonly LedgerColumn[], date: string, text: string, figure: string): string[] {
  return columns.map((_, i) => (i === 0 ? date : i === 1 ? text : i === columns.length - 1 ? figure : ""));
}

type Letterhead = { business: BusinessDetailsView; logo?: BusinessLogo | null };

/** A client's statement as a ledger: its figures, and its lines as they are read. */
export function clientStatementLedger(
  s: Omit<Statement, "lines" | "nextCursor" | "continued">,
  lines: AsyncIterable<StatementLine[]>,
  { business, logo }: Letterhead,
): Ledger {
  const { period, client: c } = s;
  async function* rows(): AsyncGenerator<string[][]> {
    yield [
      openingRow(CLIENT_STATEMENT_COLUMNS, formatDate(period.from), "Opening balance", formatAmount(s.openingBalance)),
    ];
    for await (const batch of lines) {
      yield batch.map((l) => [
        formatDate(l.date),
        clientLineType(l),
        l.kind === "invoice" ? "" : clientLineReference(l),
        l.invoiceNo,
        isDebitLine(l) ? formatAmount(l.debit) : "",
        isDebitLine(l) ? "" : formatAmount(l.credit),
        formatAmount(l.balance),
      ]);
    }
  }
  return {
    title: "STATEMENT",
    documentTitle: `Statement of account: ${c.name}, ${period.from} to ${period.to}`,
    business,
    logo,
    facts: [
      ["Statement of account", ""],
      ["From", formatDate(period.from)],
      ["To", formatDate(period.to)],
    ],
    party: {
      label: "STATEMENT FOR",
      name: c.name,
      lines: [c.address, [c.phone, c.email].filter(Boolean).join(" · ")].filter(Boolean) as string[],
    },
    summary: [
      ["Opening balance", formatNaira(s.openingBalance)],
      ["Invoiced", formatNaira(s.totalDebits)],
      ["Paid and credited", formatNaira(s.totalCredits)],
      ["Closing balance", formatNaira(s.closingBalance)],
    ],
    columns: CLIENT_STATEMENT_COLUMNS,
    rows: rows(),
    closing: [`Closing balance at ${formatDate(period.to)}`, formatAmount(s.closingBalance)],
    box: {
      title: `Ageing as of ${formatDate(period.to)}`,
      figures: [
        ...AGEING_BUCKETS.map((b): [string, string] => [AGEING_LABELS[b], formatNaira(s.ageing[b])]),
        ["Total", formatNaira(s.ageing.total)],
      ],
    },
    footer: `Statement · ${c.name}`,
  };
}

/** A client's statement of account for `?from=&to=` (docs/decisions/0970); null when no such client. */
export async function clientStatementPdf(
  actor: Actor,
  clientId: number,
  params: URLSearchParams,
  now = new Date(),
): Promise<StatementPdf | BadExport | null> {
  assertCan(actor, "client.statement", `client/${clientId}/statement/pdf`);
  const parsed = parseStatementPeriod(params, now);
  if (!parsed.ok) return { invalid: parsed.message };
  const { period } = parsed;
  // Read before the statement's snapshot opens: on PGlite that transaction holds the one
  // connection until the last line is drawn, and these would wait for it.
  const [business, logo] = await Promise.all([getBusinessDetails(), getBusinessLogo()]);
  const download = await clientStatementDownload(actor, clientId, period);
  if (!download.ok) return download.status === 404 ? null : { invalid: download.message };
  const stream = renderLedgerPdf(clientStatementLedger(download.statement, download.batches, { business, logo }));
  return { stream, filename: `statement-${clientId}-${period.from}-to-${period.to}.pdf` };
}

/** An agent's statement as a ledger: its figures, and its lines as they are read. */
export function agentStatementLedger(
  s: Pick<AgentStatement, "agent" | "period" | "openingOwed" | "closingOwed" | "totals">,
  lines: AsyncIterable<AgentStatementLine[]>,
  { business, logo }: Letterhead,
): Ledger {
  const { period, agent: a } = s;
  async function* rows(): AsyncGenerator<string[][]> {
    yield [openingRow(AGENT_STATEMENT_COLUMNS, formatDate(period.from), "Owed at start", formatAmount(s.openingOwed))];
    for await (const batch of lines) {
      yield batch.map((l) =>
        l.kind === "delivery"
          ? [
              formatDate(l.date),
              l.truckNo ?? "-",
              l.location ?? "",
              formatTons(l.tons ?? "0"),
              formatAmount(l.buyingRate ?? "0"),
              formatAmount(l.gross ?? "0"),
              formatAmount(l.offloading ?? "0"),
              formatAmount(l.mobilization ?? "0"),
              formatAmount(l.earned ?? "0"),
              "",
              formatAmount(l.owed),
            ]
          : [
              formatDate(l.date),
              `${AGENT_LINE_TYPES[l.kind]}${l.reversed ? " (reversed)" : ""}${l.method ? ` · ${PAYOUT_METHOD_LABELS[l.method]}` : ""}`,
              l.kind === "reversal" ? reversalText(l) : [l.reference, payoutStatusText(l)].filter(Boolean).join(" · "),
              "",
              "",
              "",
              "",
              "",
              "",
              formatAmount(l.paid ?? "0"),
              formatAmount(l.owed),
            ],
      );
    }
  }
  const bank = [a.bankName, a.bankAccountName, a.bankAccountNo].filter(Boolean).join(" · ");
  return {
    title: "AGENT STATEMENT",
    documentTitle: `Agent statement: ${a.name}, ${period.from} to ${period.to}`,
    business,
    logo,
    facts: [
      ["Settlement", ""],
      ["From", formatDate(period.from)],
      ["To", formatDate(period.to)],
    ],
    party: {
      label: "AGENT",
      name: a.name,
      lines: [a.phone, bank ? `Bank: ${bank}` : null, `Paid on: ${payBasisLabel(a.payBasis)}`].filter(
        Boolean,
      ) as string[],
    },
    summary: [
      ["Owed at start", formatNaira(s.openingOwed)],
      [`Net payable (${deliveriesCount(s.totals.deliveries)})`, formatNaira(s.totals.earned)],
      ["Paid out", formatNaira(s.totals.paid)],
      ["Owed at end", formatNaira(s.closingOwed)],
    ],
    columns: AGENT_STATEMENT_COLUMNS,
    landscape: true,
    rows: rows(),
    closing: [`Owed at ${formatDate(period.to)}`, formatAmount(s.closingOwed)],
    footer: `Agent statement · ${a.name}`,
  };
}

/** An agent's statement for `?from=&to=` (docs/decisions/0980); null when no such agent. */
export async function agentStatementPdf(
  actor: Actor,
  agentId: number,
  params: URLSearchParams,
  now = new Date(),
): Promise<StatementPdf | BadExport | null> {
  assertCan(actor, "agent.settle", `agent/${agentId}/statement/pdf`);
  const parsed = parseStatementPeriod(params, now);
  if (!parsed.ok) return { invalid: parsed.message };
  const { period } = parsed;
  // Before the statement is read, as for a client's (a snapshot held on PGlite's one connection).
  const [business, logo] = await Promise.all([getBusinessDetails(), getBusinessLogo()]);
  const download = await agentStatementDownload(actor, agentId, period);
  if (!download.ok) return download.status === 404 ? null : { invalid: download.message };
  const stream = renderLedgerPdf(agentStatementLedger(download.statement, download.batches, { business, logo }));
  return { stream, filename: `agent-statement-${agentId}-${period.from}-to-${period.to}.pdf` };
}
