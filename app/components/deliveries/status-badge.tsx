const STYLES: Record<string, string> = {
  confirmed: "bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200",
  invoiced: "bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200",
  draft: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
};

export function DeliveryStatusBadge({ status }: { status: string }) {
  return <span className={`badge capitalize ${STYLES[status] ?? STYLES.draft}`}>{status}</span>;
}
