// Tones are one class each (tailwind.css): a badge is repeated on every row of a list.
const TONES: Record<string, string> = { confirmed: "tone-blue", invoiced: "tone-green", draft: "tone-slate" };

/** The badge's classes for a delivery status. */
export function deliveryStatusBadgeClass(status: string) {
  return `badge capitalize ${TONES[status] ?? TONES.draft}`;
}

export function DeliveryStatusBadge({ status }: { status: string }) {
  return <span className={deliveryStatusBadgeClass(status)}>{status}</span>;
}
