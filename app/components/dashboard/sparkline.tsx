import { dec } from "~/utils/money";

/** A 7-point inline SVG sparkline; values are decimal strings, scaled on integers. */
export function Sparkline({ values, label }: { values: string[]; label: string }) {
  const naira = values.map((v) => {
    const d = dec(v);
    return Number(d.units / 10n ** BigInt(d.scale));
  });
  const min = Math.min(0, ...naira);
  const max = Math.max(...naira, min + 1);
  const width = 100;
  const height = 28;
  const points = naira
    .map(
      (v, i) =>
        `${((i / Math.max(1, naira.length - 1)) * width).toFixed(1)},${(height - ((v - min) / (max - min)) * height).toFixed(1)}`,
    )
    .join(" ");
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      className="mt-2 h-7 w-full text-green-600"
      role="img"
      aria-label={label}
      preserveAspectRatio="none"
    >
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
