// How an agent's balance reads beside a payout (docs/decisions/1250): owed while it is at or above
// zero, an advance outstanding below it.
import { formatNaira, isNegative, sub, toFixed } from "~/utils/money";

export function balanceWords(balance: string) {
  return isNegative(balance)
    ? `Advance outstanding ${formatNaira(toFixed(sub("0", balance)))}`
    : `Owed ${formatNaira(balance)}`;
}
