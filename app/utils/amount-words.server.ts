// An amount in words for invoices (docs/decisions/0950): "One Million Naira and Five Kobo
// Only". The numbers are spelled by `to-words` (en-NG locale); naira and kobo are spelled
// apart, as whole numbers from the exact decimal, so no float ever carries the amount.
import { ToWords } from "to-words";
import { dec, round, type Decimal } from "./money";

const words = new ToWords({ localeCode: "en-NG" });

/** `amount` (a decimal string, rounded half-up to the kobo) in words, naira and kobo. */
export function amountInWords(amount: string | Decimal): string {
  const kobo = round(dec(amount), 2).units;
  const negative = kobo < 0n;
  const abs = negative ? -kobo : kobo;
  const naira = abs / 100n;
  const rest = abs % 100n;
  const parts: string[] = [];
  if (naira > 0n || rest === 0n) parts.push(`${words.convert(naira)} Naira`);
  if (rest > 0n) parts.push(`${words.convert(rest)} Kobo`);
  return `${negative ? "Minus " : ""}${parts.join(" and ")} Only`;
}
