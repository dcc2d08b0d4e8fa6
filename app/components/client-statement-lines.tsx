// A client statement's table body (decision 0507): React rows with no state and no handler;
// the invoice links are RowLinks (decision 0505). The words of each line come from
// client-statement.ts, shared with the CSV and the PDF.
import { clientLineReference, clientLineType, isDebitLine } from "~/utils/money-line-words";
import { RowLink } from "~/components/row-link";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";
import { Statement } from "~/presenters/client-statement.server";

type Page = Pick<Statement, "period" | "openingBalance" | "closingBalance" | "lines" | "continued" | "nextCursor">;

/** The rows: the opening balance on the first page, the lines, the closing balance on the last. */
export function ClientStatementLines({ statement: s }: { statement: Page }) {
  return (
    <>
      {s.continued ? null : (
        <tr>
          <td>{formatDate(s.period.from)}</td>
          <td colSpan={5}>Opening balance</td>
          <td className="text-right">{formatNaira(s.openingBalance)}</td>
        </tr>
      )}
      {s.lines.map((l) => {
        const debit = isDebitLine(l);
        return (
          <tr key={l.cursor} className={l.void ? "text-slate-400" : undefined}>
            <td>{formatDate(l.date)}</td>
            <td>{clientLineType(l)}</td>
            <td>{l.kind === "invoice" ? "" : clientLineReference(l)}</td>
            <td>
              <RowLink to={`/invoices/${l.invoiceId}`}>{l.invoiceNo}</RowLink>
            </td>
            <td className="text-right">{debit ? formatNaira(l.debit) : ""}</td>
            <td className="text-right">{debit ? "" : formatNaira(l.credit)}</td>
            <td className="text-right">{formatNaira(l.balance)}</td>
          </tr>
        );
      })}
      {s.nextCursor ? null : (
        <tr className="font-semibold">
          <td>{formatDate(s.period.to)}</td>
          <td colSpan={5}>Closing balance</td>
          <td className="text-right">{formatNaira(s.closingBalance)}</td>
        </tr>
      )}
    </>
  );
}
