// The marks a reversible money entry carries in a list (payments, credit notes; decision 0920's
// addenda): "Reversal" on a reversal, "Reversed" on an entry taken back, "Refund" on money paid
// back to a client, and whether an entry can still be reversed.

type Marks = {
  /** On a reversal: the id of the entry it takes back. */
  reverses: number | null;
  /** On an entry taken back: the day of its reversal. */
  reversedOn: string | null;
};

/** Whether a line can still be reversed: an entry (not a reversal) not taken back yet. */
export const isReversible = ({ reverses, reversedOn }: Marks) => reverses === null && !reversedOn;

/** The mark on a line: "Reversal" on a reversal, "Reversed" on an entry taken back. */
export function ReversalBadge({ reverses, reversedOn }: Marks) {
  if (reverses !== null) return <span className="badge tone-amber ml-2">Reversal</span>;
  if (reversedOn) return <span className="badge tone-slate ml-2">Reversed</span>;
  return null;
}

/** The mark on either half of a client credit moved between invoices. */
export function CreditMovedBadge() {
  return <span className="badge tone-slate ml-2">Credit moved</span>;
}

/** The mark on a refund to the client (a negative payment that is not a reversal). */
export function RefundBadge() {
  return <span className="badge tone-blue ml-2">Refund</span>;
}
