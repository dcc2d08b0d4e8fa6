// Advances to agents (docs/decisions/1250). An agent has one balance: earned − approved payouts.
// Below zero it is an advance outstanding; later earnings recover it before anything is owed, and
// of several advances the oldest is recovered first. The statement's four advance figures follow
// from the balance at its start and end and the advances paid in it; `recoverAdvances` walks an
// agent's history to say, advance by advance, what has been recovered (db:check holds the walk
// and the kept balance equal).
import { add, compare, dec, sub, toFixed, type Decimal } from "~/utils/money";

const ZERO = dec("0");
const max0 = (a: Decimal) => (compare(a, ZERO) > 0 ? a : ZERO);
const min = (a: Decimal, b: Decimal) => (compare(a, b) < 0 ? a : b);

/** The advance outstanding for a balance (earned − paid): what is below zero, else nothing. */
export const outstandingOf = (balance: string) => toFixed(max0(sub("0", balance)));

/** The statement's advance figures from its opening and closing balances and the net advances of its period. */
export function advanceFigures(openingBalance: string, advancesPaid: string, closingBalance: string) {
  const broughtForward = outstandingOf(openingBalance);
  const carriedForward = outstandingOf(closingBalance);
  return {
    advanceBroughtForward: broughtForward,
    advancesPaid: toFixed(advancesPaid),
    // What earnings set off: by later deliveries, or at once against what was owed when paid.
    advanceRecovered: toFixed(sub(add(broughtForward, advancesPaid), carriedForward)),
    advanceCarriedForward: carriedForward,
  };
}

/** One line of an agent's history, in date order (a delivery before a payout on the same day). */
export type AdvanceEvent =
  | { type: "earned"; amount: string }
  | { type: "payout"; id: number; kind: "settlement" | "advance"; amount: string }
  | { type: "reversal"; of: number; amount: string };

export type AdvanceRecovery = {
  id: number;
  amount: string;
  recovered: string;
  outstanding: string;
  reversed: boolean;
};

type Entry = { id: number | null; kind: "settlement" | "advance" | "overpaid"; amount: Decimal; outstanding: Decimal };

/**
 * Walks an agent's history and says, for each advance, how much of it earnings have recovered
 * and how much is outstanding. A payout is first set against what is owed; the rest is
 * outstanding (only an advance should have a rest: a settlement's would be a delivery edited
 * after it was paid, decision 0980's "overpaid"). Earnings recover the oldest outstanding first.
 * A reversal takes its payout's outstanding away, and what its payout had recovered is set free
 * to recover the others, oldest first.
 */
export function recoverAdvances(events: Iterable<AdvanceEvent>) {
  const walk = advanceWalk();
  for (const event of events) walk.step(event);
  return walk.result();
}

/** `recoverAdvances` a line at a time, for a history read in batches (db:check). */
export function advanceWalk(): {
  step: (event: AdvanceEvent) => void;
  result: () => { advances: AdvanceRecovery[]; outstanding: string; balance: string };
} {
  let balance = ZERO;
  const queue: Entry[] = [];
  const byId = new Map<number, Entry>();
  const reversed = new Set<number>();
  const recover = (amount: Decimal) => {
    let left = amount;
    for (const entry of queue) {
      if (compare(left, ZERO) <= 0) break;
      const take = min(left, entry.outstanding);
      entry.outstanding = sub(entry.outstanding, take);
      left = sub(left, take);
    }
  };
  const payOut = (id: number | null, kind: Entry["kind"], amount: Decimal) => {
    const rest = sub(amount, min(amount, max0(balance)));
    balance = sub(balance, amount);
    const entry: Entry = { id, kind, amount, outstanding: rest };
    queue.push(entry);
    if (id !== null) byId.set(id, entry);
  };
  const step = (event: AdvanceEvent) => {
    const amount = dec(event.amount);
    if (event.type === "earned") {
      if (compare(amount, ZERO) < 0) payOut(null, "overpaid", sub(ZERO, amount));
      else {
        recover(amount);
        balance = add(balance, amount);
      }
    } else if (event.type === "payout") {
      payOut(event.id, event.kind, amount);
    } else {
      const entry = byId.get(event.of);
      const back = compare(amount, ZERO) < 0 ? sub(ZERO, amount) : amount;
      const freed = sub(back, entry ? entry.outstanding : ZERO);
      if (entry) entry.outstanding = ZERO;
      reversed.add(event.of);
      balance = add(balance, back);
      recover(max0(freed));
    }
  };
  const result = () => {
    const advances = queue
      .filter((e) => e.kind === "advance")
      .map((e) => {
        const gone = reversed.has(e.id!);
        return {
          id: e.id!,
          amount: toFixed(e.amount),
          recovered: gone ? "0.00" : toFixed(sub(e.amount, e.outstanding)),
          outstanding: toFixed(e.outstanding),
          reversed: gone,
        };
      });
    const outstanding = toFixed(queue.reduce((total, e) => add(total, e.outstanding), ZERO));
    return { advances, outstanding, balance: toFixed(balance) };
  };
  return { step, result };
}
