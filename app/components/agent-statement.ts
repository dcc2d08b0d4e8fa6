// An agent statement's shared words and address, for the page, its CSV and its PDF alike.
import type { AgentStatementLine } from "~/presenters/agent-statement.server";

/**
 * An agent statement's own address with the period it was showing (only its dates are kept):
 * where Record Payout and Reverse Payout return to.
 */
export function agentStatementUrl(id: number, search: URLSearchParams) {
  const keep = new URLSearchParams();
  for (const name of ["from", "to"]) {
    const value = search.get(name);
    if (value) keep.set(name, value);
  }
  return `/agents/${id}/statement${keep.size ? `?${keep}` : ""}`;
}

/** What each kind of statement line is called. */
export const AGENT_LINE_TYPES = { delivery: "Delivery", payout: "Payout", reversal: "Payout reversal" } as const;

/** A reversal's line: the payout it takes back, and why. */
export const reversalText = (line: Pick<AgentStatementLine, "reversesPayoutId" | "reason">) =>
  `Reverses payout #${line.reversesPayoutId}: ${line.reason ?? ""}`;
