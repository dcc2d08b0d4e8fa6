// Tones are one class each (tailwind.css): a badge is repeated on every row of a list.
const TONES: Record<string, string> = {
  pending: "tone-amber",
  partial: "tone-blue",
  paid: "tone-green",
  overdue: "tone-red",
  void: "tone-slate",
};

/** The badge's classes for a payment status (the invoice cards write the same badge as HTML). */
export function paymentStatusBadgeClass(status: string) {
  return `badge capitalize ${TONES[status] ?? TONES.pending}`;
}

export function PaymentStatusBadge({ status }: { status: string }) {
  return <span className={paymentStatusBadgeClass(status)}>{status}</span>;
}
