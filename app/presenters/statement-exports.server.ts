// The statements' CSV exports (docs/decisions/0970, 0980): a client's statement of account,
// an agent's statement and what every agent is owed, kept apart from the list exports.
import {
  AGENT_LINE_TYPES,
  payoutStatusText,
  reversalText,
  clientLineReference,
  clientLineType,
} from "~/utils/money-line-words";
import { agentBalanceBatches, type AgentBalanceView } from "~/presenters/agents-owed.server";
import { agentStatementDownload, type AgentStatementLine } from "~/presenters/agent-statement.server";
import { payBasisLabel } from "~/utils/pay-basis";
import { PAYOUT_METHOD_LABELS } from "~/schemas/settlements";
import { clientStatementDownload } from "~/presenters/client-statement.server";
import { parseStatementPeriod } from "~/schemas/statement-query.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { AGEING_BUCKETS, AGEING_LABELS } from "~/rules/statements.server";
import { csvFilename, type BadExport, type CsvColumn, type CsvExport } from "~/utils/csv.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";

const today = (now: Date) => todayIn(env().APP_TIME_ZONE, now);

/** One row of a statement CSV: a line of the period, or the opening, closing and ageing rows. */
type StatementRow = {
  date: string;
  type: string;
  reference: string | null;
  invoiceNo: string | null;
  debit: string | null;
  credit: string | null;
  balance: string;
};

const statementColumns: CsvColumn<StatementRow>[] = [
  { header: "Date", kind: "date", value: (r) => r.date },
  { header: "Type", kind: "text", value: (r) => r.type },
  { header: "Reference", kind: "text", value: (r) => r.reference },
  { header: "Invoice No", kind: "text", value: (r) => r.invoiceNo },
  { header: "Debit", kind: "amount", value: (r) => r.debit },
  { header: "Credit", kind: "amount", value: (r) => r.credit },
  { header: "Balance", kind: "amount", value: (r) => r.balance },
];

/**
 * A client's statement of account for `?from=&to=` (docs/decisions/0970): the opening balance,
 * every line of the period with its running balance (streamed in keyset batches), the closing
 * balance and the ageing buckets as of the end date. Null when there is no such client.
 */
export async function clientStatementExport(
  actor: Actor,
  clientId: number,
  params: URLSearchParams,
  now = new Date(),
): Promise<CsvExport<StatementRow> | BadExport | null> {
  assertCan(actor, "client.statement", `client/${clientId}/statement/export`);
  const parsed = parseStatementPeriod(params, now);
  if (!parsed.ok) return { invalid: parsed.message };
  const { period } = parsed;
  // The header figures (and the client's existence) and every line, read in one snapshot
  // (decision 0970): the lines end at the closing balance the last rows give.
  const download = await clientStatementDownload(actor, clientId, period);
  if (!download.ok) return download.status === 404 ? null : { invalid: download.message };
  const { statement, batches: lines } = download;
  async function* batches(): AsyncGenerator<StatementRow[]> {
    yield [
      {
        date: period.from,
        type: "Opening balance",
        reference: null,
        invoiceNo: null,
        debit: null,
        credit: null,
        balance: statement.openingBalance,
      },
    ];
    for await (const batch of lines) {
      yield batch.map((l) => ({
        date: l.date,
        type: clientLineType(l),
        reference: clientLineReference(l),
        invoiceNo: l.invoiceNo,
        debit: l.debit,
        credit: l.credit,
        balance: l.balance,
      }));
    }
    const end = { date: period.to, reference: null, invoiceNo: null, debit: null, credit: null };
    yield [
      { ...end, type: "Closing balance", balance: statement.closingBalance },
      ...AGEING_BUCKETS.map((b) => ({ ...end, type: `Ageing: ${AGEING_LABELS[b]}`, balance: statement.ageing[b] })),
    ];
  }
  return {
    filename: `statement-${slug(statement.client.name)}-${period.from}-to-${period.to}.csv`,
    columns: statementColumns,
    batches: batches(),
  };
}

const slug = (name: string, fallback = "client") =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || fallback;

// ---- Agent settlements (docs/decisions/0980).

type AgentStatementRow = Partial<Omit<AgentStatementLine, "kind" | "cursor" | "method">> & {
  date: string;
  type: string;
  method?: string | null;
  owed: string;
  note?: string | null;
};

/** A reversal's reason and the payout it takes back; "Reversed" on a payout taken back. */
function agentLineNote(line: AgentStatementLine) {
  if (line.kind === "reversal") return reversalText(line);
  const status = payoutStatusText(line);
  if (line.kind === "payout" && line.reversed) return status ? `${status}; Reversed` : "Reversed";
  return status;
}

const agentStatementColumns: CsvColumn<AgentStatementRow>[] = [
  { header: "Date", kind: "date", value: (r) => r.date },
  { header: "Type", kind: "text", value: (r) => r.type },
  { header: "Truck No", kind: "text", value: (r) => r.truckNo },
  { header: "Location", kind: "text", value: (r) => r.location },
  // Each delivery's weight on the basis it was recorded with (docs/decisions/1220).
  { header: "Tons Paid", kind: "number", value: (r) => r.tons },
  { header: "Buying Rate", kind: "amount", value: (r) => r.buyingRate },
  { header: "Gross", kind: "amount", value: (r) => r.gross },
  { header: "Offloading", kind: "amount", value: (r) => r.offloading },
  { header: "Mobilization Advance", kind: "amount", value: (r) => r.mobilization },
  { header: "Net Payable", kind: "amount", value: (r) => r.earned },
  { header: "Paid Out", kind: "amount", value: (r) => r.paid },
  { header: "Method", kind: "text", value: (r) => r.method },
  { header: "Reference", kind: "text", value: (r) => r.reference },
  { header: "Owed", kind: "amount", value: (r) => r.owed },
  { header: "Note", kind: "text", value: (r) => r.note },
];

/**
 * An agent's statement for `?from=&to=`: what was owed at the start, every counted delivery and
 * payout of the period with what was owed after it (streamed in keyset batches), what was owed
 * at the end. Null when there is no such agent.
 */
export async function agentStatementExport(
  actor: Actor,
  agentId: number,
  params: URLSearchParams,
  now = new Date(),
): Promise<CsvExport<AgentStatementRow> | BadExport | null> {
  assertCan(actor, "agent.settle", `agent/${agentId}/statement/export`);
  const parsed = parseStatementPeriod(params, now);
  if (!parsed.ok) return { invalid: parsed.message };
  const { period } = parsed;
  const download = await agentStatementDownload(actor, agentId, period);
  if (!download.ok) return download.status === 404 ? null : { invalid: download.message };
  const { statement, batches: lineBatches } = download;
  async function* batches(): AsyncGenerator<AgentStatementRow[]> {
    // What the agent is paid on now, where the page and the PDF say it (docs/decisions/1220).
    const basis = `Paid on: ${payBasisLabel(statement.agent.payBasis)}`;
    yield [{ date: period.from, type: "Owed at start", owed: statement.openingOwed, note: basis }];
    for await (const lines of lineBatches) {
      yield lines.map((l) => {
        const {
          kind,
          cursor: _cursor,
          method,
          reversed: _reversed,
          reversesPayoutId: _of,
          reason: _reason,
          ...line
        } = l;
        return {
          ...line,
          type: AGENT_LINE_TYPES[kind],
          method: method ? PAYOUT_METHOD_LABELS[method] : null,
          note: agentLineNote(l),
        };
      });
    }
    yield [{ date: period.to, type: "Owed at end", owed: statement.closingOwed }];
  }
  return {
    filename: `agent-statement-${slug(statement.agent.name, "agent")}-${period.from}-to-${period.to}.csv`,
    columns: agentStatementColumns,
    batches: batches(),
  };
}

const agentBalanceColumns: CsvColumn<AgentBalanceView>[] = [
  { header: "Agent ID", kind: "number", value: (r) => r.agentId },
  { header: "Agent", kind: "text", value: (r) => r.name },
  { header: "Deliveries", kind: "number", value: (r) => r.deliveries },
  { header: "Net Payable", kind: "amount", value: (r) => r.earned },
  { header: "Paid Out", kind: "amount", value: (r) => r.paid },
  { header: "Owed", kind: "amount", value: (r) => r.owed },
  { header: "Last Activity", kind: "date", value: (r) => r.lastActivity },
  { header: "Advance Outstanding", kind: "amount", value: (r) => r.advanceOutstanding },
];

/** What is owed to every agent, newest activity first (the Agent Balances page). */
export async function agentBalancesExport(actor: Actor, now = new Date()): Promise<CsvExport<AgentBalanceView>> {
  assertCan(actor, "agent.settle", "agents/owed/export");
  return {
    filename: csvFilename("agent-balances", today(now)),
    columns: agentBalanceColumns,
    batches: agentBalanceBatches(actor),
  };
}
