// Tones are one class each (tailwind.css): a badge is repeated on every row of a list.
const TONES: Record<string, string> = {
  pending: "tone-amber",
  partial: "tone-blue",
  paid: "tone-green",
  overdue: "tone-red",
  void: "tone-slate",
};

export function PaymentStatusBadge({ status }: { status: string }) {
  return <span className={`badge capitalize ${TONES[status] ?? TONES.pending}`}>{status}</span>;
}
