// A client statement's lines, written as one HTML string (docs/decisions/0507, addendum of stop
// 38), as the Payments list's lines are: up to 100 rows of seven cells with no state and no
// handler, whose invoice links are plain anchors the app shell's click handler turns into
// client-side navigations (decision 0505). Every value is escaped by the `html` tag
// (app/utils/html.ts): a reference or a reversal's reason is text, never markup.
import { clientLineReference, clientLineType, isDebitLine } from "~/components/client-statement";
import type { Statement } from "~/presenters/client-statement.server";
import { formatDate } from "~/utils/dates";
import { html } from "~/utils/html";
import { formatNaira } from "~/utils/money";

type Page = Pick<Statement, "period" | "openingBalance" | "closingBalance" | "lines" | "continued" | "nextCursor">;

/** The table body: the opening balance on the first page, the lines, the closing balance on the last. */
export function clientStatementLinesHtml(s: Page): string {
  const opening =
    !s.continued &&
    html`<tr><td>${formatDate(s.period.from)}</td><td colSpan="5">Opening balance</td><td class="text-right">${formatNaira(s.openingBalance)}</td></tr>`;
  const lines = s.lines.map((l) => {
    const debit = isDebitLine(l);
    return html`<tr${l.void && html` class="text-slate-400"`}><td>${formatDate(l.date)}</td><td>${clientLineType(l)}</td><td>${l.kind === "invoice" ? "" : clientLineReference(l)}</td><td><a data-discover="true" href="/invoices/${l.invoiceId}">${l.invoiceNo}</a></td><td class="text-right">${debit ? formatNaira(l.debit) : ""}</td><td class="text-right">${debit ? "" : formatNaira(l.credit)}</td><td class="text-right">${formatNaira(l.balance)}</td></tr>`;
  });
  const closing =
    !s.nextCursor &&
    html`<tr class="font-semibold"><td>${formatDate(s.period.to)}</td><td colSpan="5">Closing balance</td><td class="text-right">${formatNaira(s.closingBalance)}</td></tr>`;
  return html`${opening}${lines}${closing}`.value;
}
