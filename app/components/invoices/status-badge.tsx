const STYLES: Record<string, string> = {
  pending: "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200",
  partial: "bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200",
  paid: "bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200",
  overdue: "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200",
};

export function PaymentStatusBadge({ status }: { status: string }) {
  return <span className={`badge capitalize ${STYLES[status] ?? STYLES.pending}`}>{status}</span>;
}
