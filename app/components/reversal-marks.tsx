// The marks a reversible money entry carries in a list (payments, credit notes; decision
// 0920): "Reversal" on a reversal, "Reversed" on an entry taken back, "Refund" on money paid
// back to a client, and whether an entry can still be reversed. Each mark is written once as
// data and drawn by the badges here, on the Payments list and the invoice page alike.
import { Link } from "@remix-run/react";

type Marks = {
  /** On a reversal: the id of the entry it takes back. */
  reverses: number | null;
  /** On an entry taken back: the day of its reversal. */
  reversedOn: string | null;
};

/** A badge beside an entry's amount. */
type Mark = { label: string; className: string };

/** Whether a line can still be reversed: an entry (not a reversal) not taken back yet. */
export const isReversible = ({ reverses, reversedOn }: Marks) => reverses === null && !reversedOn;

/** The mark of a reversal ("Reversal") or of an entry taken back ("Reversed"); null on others. */
function reversalMark({ reverses, reversedOn }: Marks): Mark | null {
  if (reverses !== null) return { label: "Reversal", className: "badge tone-amber ml-2" };
  if (reversedOn) return { label: "Reversed", className: "badge tone-slate ml-2" };
  return null;
}

/** The mark on either half of a client credit moved between invoices. */
const CREDIT_MOVED_MARK: Mark = { label: "Credit moved", className: "badge tone-slate ml-2" };

/** The mark on a refund to the client (a negative payment that is not a reversal). */
const REFUND_MARK: Mark = { label: "Refund", className: "badge tone-blue ml-2" };

const Badge = ({ mark }: { mark: Mark | null }) => (mark ? <span className={mark.className}>{mark.label}</span> : null);

/** "Reversal" on a reversal, "Reversed" on an entry taken back, nothing on others. */
export const ReversalBadge = (marks: Marks) => <Badge mark={reversalMark(marks)} />;

export const CreditMovedBadge = () => <Badge mark={CREDIT_MOVED_MARK} />;

export const RefundBadge = () => <Badge mark={REFUND_MARK} />;

/**
 * Said where someone who cannot reverse (a manager) sees entries that could be reversed:
 * reversing is an admin's job (decision 0801, payment.reverse and credit_note.reverse).
 */
export function AdminReversesNote({ what }: { what: "payment" | "credit note" }) {
  return (
    <p role="note" className="page-subtitle text-sm" data-testid={`admin-reverses-${what.replace(" ", "-")}`}>
      {`Only an admin can reverse a ${what} entered in error: ask an admin.`}
    </p>
  );
}

/** The link beside an entry an admin may still reverse: it opens the reversal dialog over the page. */
export function ReverseLink({ to, what }: { to: string; what: string }) {
  return (
    <Link to={to} className="underline" preventScrollReset aria-label={`Reverse ${what}`}>
      Reverse
    </Link>
  );
}
