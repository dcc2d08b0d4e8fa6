import type { ReactNode } from "react";

/**
 * The box a wide table scrolls in, so the page itself never scrolls sideways on a phone. It is
 * a named region that takes focus, so keyboard users can scroll it too.
 */
export function TableScroll({
  label,
  className = "",
  children,
  busy,
}: {
  label: string;
  className?: string;
  children: ReactNode;
  busy?: boolean;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      aria-busy={busy || undefined}
      tabIndex={0}
      className={`card overflow-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-600 ${className}`}
    >
      {children}
    </div>
  );
}
