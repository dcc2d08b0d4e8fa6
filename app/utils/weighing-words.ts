// How an invoice line says where its tons come from (docs/decisions/1220): a delivery with the
// client's ticket is invoiced on the accepted tons, and its line says what the client's
// weighbridge said, the moisture reading and what the quality rule took off. One wording for the
// invoice page, the printable invoice and the PDF.
import { compare, formatTons } from "./money";

/** What an invoice line keeps of the client's ticket; all null when it had none. */
export type LineWeighing = {
  receivedTons: string | null;
  moisture: string | null;
  qualityDeductionTons: string | null;
};

/** A percent as read: "18.50" → "18.5", "16.00" → "16". */
export function percentText(value: string): string {
  return value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value;
}

/**
 * "Received 30.12 t · moisture 18.5% · deducted 0.753 t", or null for a line invoiced on its
 * loaded tons (no client's ticket). A ticket without a reading, or one at or under the rule's
 * threshold, deducts nothing, and says so.
 */
export function weighingText(line: LineWeighing): string | null {
  if (line.receivedTons === null) return null;
  const parts = [`Received ${formatTons(line.receivedTons)} t`];
  if (line.moisture !== null) parts.push(`moisture ${percentText(line.moisture)}%`);
  const deducted = line.qualityDeductionTons ?? "0";
  parts.push(compare(deducted, "0") > 0 ? `deducted ${formatTons(deducted)} t` : "nothing deducted");
  return parts.join(" · ");
}

/** Under an invoice's lines when any was weighed at the client's gate: what its Tons are. */
export const ACCEPTED_TONS_NOTE =
  "Tons on a line with the client's weighbridge ticket are the tons accepted: received less the quality deduction.";
