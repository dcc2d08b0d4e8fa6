// What a share link shows (docs/decisions/1260): the business's letterhead and one document, as
// static markup written on the server. No link into the app, no script, nothing but the document.
import type { ReactNode } from "react";
import type { BusinessDetailsView } from "~/models/business.server";
import type { AgentStatement } from "~/presenters/agent-statement.server";
import type { Statement } from "~/presenters/client-statement.server";
import { AGEING_BUCKETS, AGEING_LABELS } from "~/rules/ageing";
import { formatDate } from "~/utils/dates";
import { formatNaira, formatTons } from "~/utils/money";
import {
  AGENT_LINE_TYPES,
  clientLineReference,
  clientLineType,
  isDebitLine,
  reversalText,
} from "~/utils/money-line-words";
import { PAYOUT_METHOD_LABELS } from "~/utils/payout-methods";

/** The business block at the head of a shared statement (an invoice carries its own). */
export function Letterhead({
  business,
  title,
  children,
}: {
  business: BusinessDetailsView;
  title: string;
  children?: ReactNode;
}) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-300 pb-3">
      <div className="min-w-0 space-y-0.5 [overflow-wrap:anywhere]">
        <p className="text-lg font-bold">{business.companyName ?? "PKS"}</p>
        {business.address ? <p className="whitespace-pre-line">{business.address}</p> : null}
        <p>{[business.phone, business.email].filter(Boolean).join(" · ")}</p>
      </div>
      <div className="text-right">
        <h1 className="text-xl font-bold tracking-wide">{title}</h1>
        {children}
      </div>
    </header>
  );
}

const Money = ({ value }: { value: string | null }) => <>{value === null ? "" : formatNaira(value)}</>;

/** A statement's figures for its period, in naira, side by side. */
function Figures({ figures }: { figures: readonly (readonly [string, string])[] }) {
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs text-slate-600">{label}</dt>
          <dd className="font-semibold tabular-nums">{formatNaira(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The lines shown are the period's first page: a longer period says where the rest is. */
function More({ shown, more }: { shown: number; more: boolean }) {
  return more ? (
    <p className="mt-2 text-slate-600">The first {shown} lines are shown; the PDF has every line of the period.</p>
  ) : null;
}

export function SharedClientStatement({
  statement: s,
  business,
}: {
  statement: Statement;
  business: BusinessDetailsView;
}) {
  return (
    <article aria-label="Statement of account" className="space-y-4">
      <Letterhead business={business} title="STATEMENT OF ACCOUNT">
        <p>
          {formatDate(s.period.from)} to {formatDate(s.period.to)}
        </p>
      </Letterhead>
      <section aria-label="Client">
        <p className="font-semibold">{s.client.name}</p>
        {s.client.address ? <p className="whitespace-pre-line">{s.client.address}</p> : null}
      </section>
      <Figures
        figures={[
          ["Opening balance", s.openingBalance],
          ["Invoiced", s.totalDebits],
          ["Paid and credited", s.totalCredits],
          ["Closing balance", s.closingBalance],
        ]}
      />
      <div className="overflow-x-auto">
        <table className="w-full text-xs sm:text-sm">
          <caption className="sr-only">Transactions</caption>
          <thead>
            <tr className="border-b border-slate-400 text-left">
              <th scope="col">Date</th>
              <th scope="col">Type</th>
              <th scope="col">Invoice</th>
              <th scope="col">Reference</th>
              <th scope="col" className="text-right">
                Debit
              </th>
              <th scope="col" className="text-right">
                Credit
              </th>
              <th scope="col" className="text-right">
                Balance
              </th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>{formatDate(s.period.from)}</td>
              <td colSpan={5}>Opening balance</td>
              <td className="text-right">{formatNaira(s.openingBalance)}</td>
            </tr>
            {s.lines.map((l) => (
              <tr key={l.cursor} className={l.void ? "text-slate-500" : undefined}>
                <td>{formatDate(l.date)}</td>
                <td>{clientLineType(l)}</td>
                <td>{l.invoiceNo}</td>
                <td>{l.kind === "invoice" ? "" : clientLineReference(l)}</td>
                <td className="text-right">{isDebitLine(l) ? formatNaira(l.debit) : ""}</td>
                <td className="text-right">{isDebitLine(l) ? "" : formatNaira(l.credit)}</td>
                <td className="text-right">{formatNaira(l.balance)}</td>
              </tr>
            ))}
            {s.nextCursor ? null : (
              <tr className="font-semibold">
                <td>{formatDate(s.period.to)}</td>
                <td colSpan={5}>Closing balance</td>
                <td className="text-right">{formatNaira(s.closingBalance)}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <More shown={s.lines.length} more={s.nextCursor !== null} />
      <section aria-label="Ageing">
        <h2 className="font-semibold">Ageing as of {formatDate(s.period.to)}</h2>
        <dl className="mt-1 grid grid-cols-2 gap-2 sm:grid-cols-6">
          {AGEING_BUCKETS.map((b) => (
            <div key={b}>
              <dt className="text-xs text-slate-600">{AGEING_LABELS[b]}</dt>
              <dd className="tabular-nums">{formatNaira(s.ageing[b])}</dd>
            </div>
          ))}
          <div>
            <dt className="text-xs text-slate-600">Total</dt>
            <dd className="font-semibold tabular-nums">{formatNaira(s.ageing.total)}</dd>
          </div>
        </dl>
      </section>
    </article>
  );
}

function agentLineDetail(l: AgentStatement["lines"][number]) {
  if (l.kind === "delivery")
    return [l.truckNo, l.location, l.tons ? `${formatTons(l.tons)} t` : null].filter(Boolean).join(" · ");
  if (l.kind === "reversal") return reversalText(l);
  return [l.method ? PAYOUT_METHOD_LABELS[l.method] : null, l.reference].filter(Boolean).join(" · ");
}

export function SharedAgentStatement({
  statement: s,
  business,
}: {
  statement: AgentStatement;
  business: BusinessDetailsView;
}) {
  return (
    <article aria-label="Agent statement" className="space-y-4">
      <Letterhead business={business} title="AGENT STATEMENT">
        <p>
          {formatDate(s.period.from)} to {formatDate(s.period.to)}
        </p>
      </Letterhead>
      <section aria-label="Agent">
        <p className="font-semibold">{s.agent.name}</p>
      </section>
      <Figures
        figures={[
          ["Owed at the start", s.openingOwed],
          ["Earned", s.totals.earned],
          ["Paid out", s.totals.paid],
          ["Owed at the end", s.closingOwed],
        ]}
      />
      <div className="overflow-x-auto">
        <table className="w-full text-xs sm:text-sm">
          <caption className="sr-only">Deliveries and payouts</caption>
          <thead>
            <tr className="border-b border-slate-400 text-left">
              <th scope="col">Date</th>
              <th scope="col">Type</th>
              <th scope="col">Details</th>
              <th scope="col" className="text-right">
                Earned
              </th>
              <th scope="col" className="text-right">
                Paid
              </th>
              <th scope="col" className="text-right">
                Owed
              </th>
            </tr>
          </thead>
          <tbody>
            {s.lines.map((l) => (
              <tr key={l.cursor}>
                <td>{formatDate(l.date)}</td>
                <td>{AGENT_LINE_TYPES[l.kind]}</td>
                <td>{agentLineDetail(l)}</td>
                <td className="text-right">
                  <Money value={l.earned} />
                </td>
                <td className="text-right">
                  <Money value={l.paid} />
                </td>
                <td className="text-right">{formatNaira(l.owed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <More shown={s.lines.length} more={s.nextCursor !== null} />
    </article>
  );
}
