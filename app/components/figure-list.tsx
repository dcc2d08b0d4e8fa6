import { Figure } from "~/components/statement-parts";

/** A card's row of figures, each a label over its amount (the statements and the balance lists). */
export function FigureList({ className, figures }: { className: string; figures: [label: string, value: string][] }) {
  return (
    <dl className={className}>
      {figures.map(([label, value]) => (
        <Figure key={label} label={label} value={value} />
      ))}
    </dl>
  );
}
