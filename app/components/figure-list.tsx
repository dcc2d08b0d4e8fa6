import type { ReactNode } from "react";
import { Figure } from "~/components/statement-parts";

// Tailwind keeps only class names it finds written out whole.
const COLUMNS = { 3: "sm:grid-cols-3", 4: "sm:grid-cols-4" } as const;

/**
 * A card of figures, each a label over its amount (the statements and the balance lists): a
 * named section, an optional line above the figures (the period), and one column per figure on
 * a wide screen.
 */
export function FigureCard({
  label,
  note,
  figures,
}: {
  label: string;
  note?: ReactNode;
  figures: [label: string, value: string][];
}) {
  const columns = COLUMNS[figures.length as keyof typeof COLUMNS] ?? "sm:grid-cols-4";
  return (
    <section className="card p-4" aria-label={label}>
      {note ? <p className="page-subtitle">{note}</p> : null}
      <dl className={`${note ? "mt-2 " : ""}grid gap-2 ${columns}`}>
        {figures.map(([name, value]) => (
          <Figure key={name} label={name} value={value} />
        ))}
      </dl>
    </section>
  );
}
