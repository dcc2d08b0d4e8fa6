import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { AGENT_LINE_TYPES, reversalText } from "~/utils/money-line-words";
import { ErrorView } from "~/components/error-view";
import { FigureCard } from "~/components/figure-list";
import { StatementDownloads, StatementPager, StatementPeriod } from "~/components/statement-parts";
import { TableScroll } from "~/components/table-scroll";
import { agentStatement, getStatementAgent, type AgentStatement } from "~/presenters/agent-statement.server";
import { readStatementPageQuery } from "~/schemas/statement-query.server";
import { payBasisLabel } from "~/utils/pay-basis";
import { requireCapability } from "~/rules/capabilities.server";
import { PAYOUT_METHOD_LABELS } from "~/utils/payout-methods";
import { formatDate } from "~/utils/dates";
import { invariantResponse } from "~/utils/http.server";
import { formatNaira, formatTons } from "~/utils/money";
import { parseId } from "~/utils/params";
import { deliveriesCount } from "~/utils/plural";
import { OwnerRateCards } from "~/components/rates/rate-cards-table";
import { cardsNaming } from "~/models/rate-card.server";
import { PageHeader } from "~/components/page-header";
import { keepListBehindDialogs } from "~/utils/revalidate";

// An agent's statement (docs/decisions/0980): every counted delivery's net
// payable and every payout of the period with what was owed after it, for admins. The dates
// are a GET form, so it works without JavaScript; a bad period is a message on the page (400).
// Record Payout and Reverse Payout are child routes: a dialog over this page, or a page of its
// own without JavaScript.
// Opening one of its dialogs does not load the statement again (decision 0200).
export const shouldRevalidate = keepListBehindDialogs((params) => `/agents/${params.id}/statement`);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.agent ? `${data.agent.name} · Agent Statement` : "Agent Statement" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const query = readStatementPageQuery(new URL(request.url).searchParams);
  const { form } = query;
  // The agent's rate cards (docs/decisions/1230), newest start first.
  const { items: rateCards } = await cardsNaming(user, { agentId: id });
  if (!query.ok) {
    // The agent's name for the heading: one row, not a statement.
    const agent = await getStatementAgent(user, id);
    invariantResponse(agent, "Agent not found");
    return data({ agent, form, error: query.message, statement: null, rateCards }, { status: 400 });
  }
  const result = await agentStatement(user, id, query.period, query.after);
  invariantResponse(result.ok || result.status !== 404, "Agent not found");
  if (!result.ok)
    return data(
      { agent: null, form, error: result.message, statement: null, rateCards: [] },
      { status: result.status },
    );
  const { statement } = result;
  return data({
    agent: statement.agent,
    form: { from: statement.period.from, to: statement.period.to },
    error: null,
    statement,
    rateCards,
  });
}

export default function AgentStatementPage() {
  const { agent, form, error, statement, rateCards } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <div className="space-y-4">
      <PageHeader title="Agent Statement" subtitle={agent?.name}>
        <Link to="/agents/owed" className="btn-ghost">
          Agent Balances
        </Link>
        {agent ? (
          <Link to={`payout${search}`} className="btn-primary" preventScrollReset>
            Record Payout
          </Link>
        ) : null}
        {statement && agent ? (
          <StatementDownloads base={`/agents/${agent.id}/statement`} period={statement.period} />
        ) : null}
        {agent ? (
          <Link to={`/share-links?scope=agent-statement&subjectId=${agent.id}`} className="btn-outline">
            Share
          </Link>
        ) : null}
      </PageHeader>
      <StatementPeriod from={form.from} to={form.to} error={error} />
      {statement ? <StatementView statement={statement} /> : null}
      {agent ? (
        <OwnerRateCards
          owner={{ kind: "agent", id: agent.id }}
          cards={rateCards}
          heading={`Rate cards naming ${agent.name}`}
          level="h2"
        />
      ) : null}
      <Outlet />
    </div>
  );
}

// The figure columns, right-aligned; the two long words may break where they are marked.
const NUMBER_COLUMNS = [
  // Each delivery's weight on the basis it was recorded with (docs/decisions/1220).
  "Tons paid",
  "Buying rate",
  "Gross",
  "Off\u00adloading",
  "Mobili\u00adzation",
  "Net payable",
  "Paid out",
  "Owed",
];

function StatementView({ statement: s }: { statement: AgentStatement }) {
  const periodSearch = `?from=${s.period.from}&to=${s.period.to}`;
  const base = `/agents/${s.agent.id}/statement${periodSearch}`;
  const bank = [s.agent.bankName, s.agent.bankAccountName, s.agent.bankAccountNo].filter(Boolean).join(" · ");
  return (
    <>
      {s.advanceBroughtForward !== "0.00" || s.advancesPaid !== "0.00" || s.advanceCarriedForward !== "0.00" ? (
        <FigureCard
          label="Advances"
          note="Money paid before the deliveries it pays for: later deliveries' net payable recovers it, oldest advance first (decision 1250)."
          figures={[
            ["Advance brought forward", formatNaira(s.advanceBroughtForward)],
            ["Advances paid", formatNaira(s.advancesPaid)],
            ["Recovered", formatNaira(s.advanceRecovered)],
            ["Advance carried forward", formatNaira(s.advanceCarriedForward)],
          ]}
        />
      ) : null}
      {s.awaitingApproval.count > 0 ? (
        <p role="status" className="card border-amber-300 bg-amber-50 p-3 text-sm dark:bg-amber-950/40">
          {s.awaitingApproval.count === 1 ? "1 payout" : `${s.awaitingApproval.count} payouts`} of{" "}
          {formatNaira(s.awaitingApproval.amount)} awaiting approval: not counted as paid until another admin approves.
        </p>
      ) : null}
      <FigureCard
        label="What is owed"
        note={`${formatDate(s.period.from)} to ${formatDate(s.period.to)} · Paid on: ${payBasisLabel(s.agent.payBasis)}${bank ? ` · Bank: ${bank}` : ""}`}
        figures={[
          ["Owed at start", formatNaira(s.openingOwed)],
          [`Net payable (${deliveriesCount(s.totals.deliveries)})`, formatNaira(s.totals.earned)],
          ["Paid out", formatNaira(s.totals.paid)],
          ["Owed at end", formatNaira(s.closingOwed)],
        ]}
      />
      <section className="card p-4" aria-labelledby="agent-statement-lines">
        <h2 id="agent-statement-lines" className="font-semibold">
          Deliveries and payouts
        </h2>
        <TableScroll label="Deliveries and payouts" className="-mx-4 mt-2 rounded-none border-x-0 shadow-none">
          {/* Eleven columns at 1280 px beside the sidebar: small type, tight cells, a payout's words
              across the columns it has no figures in, so it stays one line (decision 0980). */}
          <table className="data-table text-xs [&_td]:px-1.5 [&_th]:px-1.5 [&_thead]:normal-case [&_tr>*:first-child]:pl-4 [&_tr>*:last-child]:pr-4">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Truck</th>
                <th scope="col">Location</th>
                {NUMBER_COLUMNS.map((label) => (
                  <th key={label} scope="col" className="num">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {s.continued ? null : (
                <tr>
                  <td className="nowrap">{formatDate(s.period.from)}</td>
                  <td colSpan={9}>Owed at start</td>
                  <td className="num">{formatNaira(s.openingOwed)}</td>
                </tr>
              )}
              {s.lines.map((l) =>
                l.kind === "delivery" ? (
                  <tr key={l.cursor}>
                    <td className="nowrap">{formatDate(l.date)}</td>
                    <td className="wrap-any">{l.truckNo ?? "—"}</td>
                    <td className="wrap-any">{l.location}</td>
                    <td className="num">{l.tons === null ? "—" : formatTons(l.tons)}</td>
                    <td className="num">{formatNaira(l.buyingRate ?? "0")}</td>
                    <td className="num">{formatNaira(l.gross ?? "0")}</td>
                    <td className="num">{formatNaira(l.offloading ?? "0")}</td>
                    <td className="num">{formatNaira(l.mobilization ?? "0")}</td>
                    <td className="num">{formatNaira(l.earned ?? "0")}</td>
                    <td />
                    <td className="num">{formatNaira(l.owed)}</td>
                  </tr>
                ) : l.kind === "reversal" ? (
                  <tr key={l.cursor} className="bg-amber-50 dark:bg-amber-950/40">
                    <td className="nowrap">{formatDate(l.date)}</td>
                    <td colSpan={8} className="wrap-any">
                      {AGENT_LINE_TYPES.reversal} · {l.method ? PAYOUT_METHOD_LABELS[l.method] : ""} · {reversalText(l)}
                    </td>
                    <td className="num">{formatNaira(l.paid ?? "0")}</td>
                    <td className="num">{formatNaira(l.owed)}</td>
                  </tr>
                ) : (
                  <tr key={l.cursor} className="bg-slate-50 dark:bg-slate-800/50">
                    <td className="nowrap">{formatDate(l.date)}</td>
                    <td colSpan={8}>
                      <div className="flex flex-wrap items-center justify-between gap-x-3">
                        <span className="wrap-any">
                          {l.payoutKind === "advance" ? "Advance" : "Payout"} #{l.id} ·{" "}
                          {l.method ? PAYOUT_METHOD_LABELS[l.method] : ""}
                          {l.reference ? ` · ${l.reference}` : ""}
                          {l.status !== "approved" && l.amount ? ` · ${formatNaira(l.amount)}` : ""}
                          {l.status === "rejected" && l.reason ? ` · ${l.reason}` : ""}
                        </span>
                        {l.status === "pending" ? (
                          <Link
                            to={`/payouts/pending/${l.id}/approve`}
                            className="badge tone-amber"
                            aria-label={`Payout #${l.id} awaiting approval: approve or reject`}
                          >
                            Awaiting approval
                          </Link>
                        ) : l.status === "rejected" ? (
                          <span className="badge tone-slate">Rejected</span>
                        ) : l.reversed ? (
                          <span className="badge tone-slate">Reversed</span>
                        ) : (
                          <Link
                            to={`reverse/${l.id}${periodSearch}`}
                            className="btn-ghost btn-sm -my-1.5"
                            preventScrollReset
                            aria-label={`Reverse payout #${l.id}`}
                          >
                            Reverse
                          </Link>
                        )}
                      </div>
                    </td>
                    <td className="num">{formatNaira(l.paid ?? "0")}</td>
                    <td className="num">{formatNaira(l.owed)}</td>
                  </tr>
                ),
              )}
              {s.nextCursor ? null : (
                <tr className="font-semibold">
                  <td className="nowrap">{formatDate(s.period.to)}</td>
                  <td colSpan={9}>Owed at end</td>
                  <td className="num">{formatNaira(s.closingOwed)}</td>
                </tr>
              )}
            </tbody>
          </table>
        </TableScroll>
        {s.lines.length === 0 && !s.continued ? (
          <p className="page-subtitle mt-2">No deliveries or payouts in this period.</p>
        ) : null}
        <StatementPager base={base} continued={s.continued} nextCursor={s.nextCursor} />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the agent statement. Please try again." />;
}
