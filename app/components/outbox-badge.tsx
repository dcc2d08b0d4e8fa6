import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { startOutbox, subscribe, type OutboxState } from "~/utils/outbox";
import { TruckIcon } from "./icons";

/** The outbox as this page sees it, kept current across tabs; null until read. */
export function useOutbox(userId: string) {
  const [state, setState] = useState<OutboxState | null>(null);
  useEffect(() => {
    startOutbox(userId);
    return subscribe(setState);
  }, [userId]);
  const mine = state?.entries.filter((e) => e.userId === userId) ?? [];
  return {
    ready: state !== null,
    entries: mine,
    waiting: mine.filter((e) => e.state === "waiting"),
    attention: mine.filter((e) => e.state === "attention"),
    signInNeeded: state?.signInNeeded ?? null,
  };
}

/** Header badge: how many deliveries this phone still has to send; opens the list. */
export function OutboxBadge({ userId }: { userId: string }) {
  const { entries, attention } = useOutbox(userId);
  if (!entries.length) return null;
  const label =
    `${entries.length} ${entries.length === 1 ? "delivery" : "deliveries"} on this phone` +
    (attention.length
      ? `, ${attention.length} ${attention.length === 1 ? "needs" : "need"} attention`
      : ", waiting to send");
  return (
    <Link
      to="/deliveries/new"
      data-testid="outbox-badge"
      data-count={entries.length}
      aria-label={label}
      title={label}
      className={
        "inline-flex h-8 items-center gap-1 rounded-full px-2.5 text-sm font-semibold " +
        (attention.length
          ? "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-100"
          : "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100")
      }
    >
      <TruckIcon width={16} height={16} />
      {entries.length}
    </Link>
  );
}
