import { useEffect, useState } from "react";

/**
 * Counts up to `value` once JavaScript runs (1.5 s for stat cards, 2 s on the landing page).
 * The server renders the final number, so without JavaScript the number is simply there.
 */
export function CountUp({
  value,
  durationMs = 1500,
  format = String,
}: {
  value: number;
  durationMs?: number;
  format?: (n: number) => string;
}) {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    let frame = 0;
    const start = performance.now();
    const tick = (now: number) => {
      const t = Math.min(1, (now - start) / durationMs);
      setShown(Math.round(value * (1 - Math.pow(1 - t, 3))));
      if (t < 1) frame = requestAnimationFrame(tick);
    };
    setShown(0);
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [value, durationMs]);
  return <span data-value={value}>{format(shown)}</span>;
}
