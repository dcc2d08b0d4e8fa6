// The profit report's CSV (docs/decisions/0952, 1270): the report as the page shows it, its
// columns and rows, the foot as the last row; UTF-8 with a byte-order mark, plain decimals, text
// guarded against formulas (csv.server.ts).
import { csvFilename, type BadExport, type CsvColumn, type CsvExport } from "~/utils/csv.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { GROUP_WORDS, profitColumns } from "~/utils/profit-report-words";
import { getDb } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { profitRowBatches, profitTotals, readProfitQuery, type ProfitRow } from "./profit-report.server";

type CsvRow = ProfitRow & { total?: boolean };

export async function profitReportExport(
  actor: Actor,
  params: URLSearchParams,
  now = new Date(),
): Promise<CsvExport<CsvRow> | BadExport> {
  const asked = readProfitQuery(params, now);
  if (!asked.ok) return { invalid: asked.message };
  const { query } = asked;
  assertCan(actor, "report.profit", "reports/profit");
  // The foot of the whole period first (it also says whether the ticket columns show), then every
  // row streamed a keyset batch at a time: ten years by agent is thousands of rows.
  const { totals } = await profitTotals(await getDb(), asked.query);
  const { by, then } = asked.query;
  const dimension = by === "month" ? then : by;
  const withTickets = totals.receivedDeliveries > 0;
  const columns: CsvColumn<CsvRow>[] = [
    ...(by === "month"
      ? [{ header: GROUP_WORDS.month, kind: "text" as const, value: (r: CsvRow) => (r.total ? "Total" : r.month) }]
      : []),
    ...(dimension
      ? [
          {
            header: GROUP_WORDS[dimension],
            kind: "text" as const,
            value: (r: CsvRow) => (r.total ? (by === "month" ? "" : "Total") : (r.agentName ?? r.clientName ?? r.site)),
          },
        ]
      : []),
    ...profitColumns(withTickets).map((c): CsvColumn<CsvRow> => ({
      header: c.header,
      kind: c.kind === "money" ? "amount" : "number",
      value: (r) => r[c.key],
    })),
  ];
  const total: CsvRow = {
    ...totals,
    month: null,
    agentId: null,
    agentName: null,
    clientId: null,
    clientName: null,
    site: null,
    total: true,
  };
  async function* batches(): AsyncGenerator<CsvRow[]> {
    yield* profitRowBatches(actor, query);
    yield [total];
  }
  const today = todayIn(env().APP_TIME_ZONE, now);
  return {
    filename: csvFilename(`profit-${asked.query.from}-to-${asked.query.to}-by-${by}${then ? `-${then}` : ""}`, today),
    columns,
    batches: batches(),
  };
}
