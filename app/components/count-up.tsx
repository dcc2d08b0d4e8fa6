import { useEffect, useState } from "react";

// The counters that have already counted up in this document. A counter counts up the first
// time it is shown; after an action, a revalidation or a return to the page it shows its number
// straight away (counting up from 0 again reads as "the numbers were reset").
const counted = new Set<string>();

/**
 * Counts up to `value` once JavaScript runs, the first time the counter called `name` is shown
 * in this document (1.5 s for stat cards, 2 s on the landing page); a new value later is simply
 * shown. The server renders the final number, so without JavaScript the number is simply there.
 */
export function CountUp({
  name,
  value,
  durationMs = 1500,
  format = String,
}: {
  /** Unique among the counters of the app: it decides whether this one has counted already. */
  name: string;
  value: number;
  durationMs?: number;
  format?: (n: number) => string;
}) {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (counted.has(name) || window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) {
      counted.add(name);
      setShown(value);
      return;
    }
    counted.add(name);
    let frame = 0;
    const start = performance.now();
    const tick = (now: number) => {
      const t = Math.min(1, (now - start) / durationMs);
      setShown(Math.round(value * (1 - Math.pow(1 - t, 3))));
      if (t < 1) frame = requestAnimationFrame(tick);
    };
    setShown(0);
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      // Cut short (the value changed, or the page was left): show the number, never a stale one.
      setShown(value);
    };
  }, [name, value, durationMs]);
  return <span data-value={value}>{format(shown)}</span>;
}
