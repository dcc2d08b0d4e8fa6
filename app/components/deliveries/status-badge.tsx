// Tones are one class each (tailwind.css): a badge is repeated on every row of a list.
const TONES: Record<string, string> = { confirmed: "tone-blue", invoiced: "tone-green", draft: "tone-slate" };

export function DeliveryStatusBadge({ status }: { status: string }) {
  return <span className={`badge capitalize ${TONES[status] ?? TONES.draft}`}>{status}</span>;
}
