import type { Chart, SeriesTone } from "~/presenters/reports/charts.server";
import { TableScroll } from "~/components/table-scroll";

// A chart drawn from the geometry its loader worked out on the server (docs/decisions/1270): SVG
// in the page, so it shows without JavaScript and prints; its data table beside it. Okabe-Ito
// colours, darker on the light theme and lighter on the dark one.
const TONES: Record<SeriesTone, string> = {
  blue: "fill-[#0072B2] dark:fill-[#56B4E9]",
  orange: "fill-[#B35C00] dark:fill-[#E69F00]",
  vermillion: "fill-[#C2410C] dark:fill-[#F28C5B]",
  green: "fill-[#007A5A] dark:fill-[#2FC59A]",
};
const TEXT = "fill-slate-600 dark:fill-slate-300";
const GRID = "stroke-slate-200 dark:stroke-slate-700";
const AXIS = "stroke-slate-500 dark:stroke-slate-400";

export function ChartFigure({ chart, className = "" }: { chart: Chart; className?: string }) {
  const titleId = `${chart.id}-title`;
  return (
    <section className={`card space-y-3 p-4 ${className}`} aria-labelledby={titleId}>
      <h2 id={titleId} className="font-semibold">
        {chart.title}
      </h2>
      {chart.empty ? (
        <p className="page-subtitle">No counted deliveries in this period.</p>
      ) : (
        <div className="grid gap-4 xl:grid-cols-[3fr_2fr]">
          <div>
            {chart.series.length > 1 ? (
              <ul className="mb-2 flex flex-wrap gap-3 text-sm" aria-label="Legend">
                {chart.series.map((s) => (
                  <li key={s.name} className="flex items-center gap-1.5">
                    <svg width="12" height="12" aria-hidden="true">
                      <rect width="12" height="12" rx="2" className={TONES[s.tone]} />
                    </svg>
                    {s.name}
                  </li>
                ))}
              </ul>
            ) : null}
            {/* On a phone the chart keeps its size and scrolls in its box, which takes focus. */}
            <div
              role="region"
              aria-label={`${chart.title}: chart`}
              tabIndex={0}
              className="overflow-x-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-green-600"
            >
              <ChartSvg chart={chart} titleId={titleId} />
            </div>
          </div>
          <TableScroll label={`${chart.title}: figures`} className="max-h-80 self-start">
            <table className="w-full text-sm">
              <caption className="sr-only">{chart.title}</caption>
              <thead>
                <tr>
                  {chart.table.head.map((h, i) => (
                    <th key={h} scope="col" className={`px-2 py-1 ${i ? "text-right" : "text-left"}`}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {chart.table.rows.map((row, r) => (
                  <tr key={r} className="border-t border-slate-100 dark:border-slate-800">
                    {row.map((cell, i) =>
                      i === 0 ? (
                        <th key={i} scope="row" className="px-2 py-1 text-left font-normal">
                          {cell}
                        </th>
                      ) : (
                        <td key={i} className="px-2 py-1 text-right tabular-nums">
                          {cell}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </div>
      )}
    </section>
  );
}

function ChartSvg({ chart, titleId }: { chart: Chart; titleId: string }) {
  const { plot } = chart;
  const vertical = chart.orientation === "vertical";
  return (
    <svg
      viewBox={`0 0 ${chart.width} ${chart.height}`}
      role="img"
      aria-labelledby={titleId}
      className="h-auto w-full min-w-[420px] text-[11px]"
      data-chart={chart.id}
    >
      {chart.valueTicks.map((t) =>
        vertical ? (
          <g key={t.label}>
            <line x1={plot.left} x2={plot.right} y1={t.at} y2={t.at} className={GRID} />
            <text x={plot.left - 6} y={t.at} dy="0.32em" textAnchor="end" className={TEXT}>
              {t.label}
            </text>
          </g>
        ) : (
          <g key={t.label}>
            <line x1={t.at} x2={t.at} y1={plot.top} y2={plot.bottom} className={GRID} />
            <text x={t.at} y={plot.bottom + 14} textAnchor="middle" className={TEXT}>
              {t.label}
            </text>
          </g>
        ),
      )}
      {chart.bars.map((b, i) => (
        <rect
          key={i}
          x={b.x}
          y={b.y}
          width={b.width}
          height={Math.max(b.height, 0.5)}
          className={TONES[chart.series[b.series].tone]}
        >
          <title>{b.label}</title>
        </rect>
      ))}
      {vertical ? (
        <line x1={plot.left} x2={plot.right} y1={chart.zero} y2={chart.zero} className={AXIS} />
      ) : (
        <line x1={chart.zero} x2={chart.zero} y1={plot.top} y2={plot.bottom} className={AXIS} />
      )}
      {chart.categoryTicks.map((t) =>
        vertical ? (
          <text key={`${t.at}`} x={t.at} y={plot.bottom + 14} textAnchor="middle" className={TEXT}>
            {t.label}
          </text>
        ) : (
          <text key={`${t.at}`} x={plot.left - 6} y={t.at} dy="0.32em" textAnchor="end" className={TEXT}>
            {t.label}
          </text>
        ),
      )}
      {vertical ? (
        <>
          <text x={(plot.left + plot.right) / 2} y={chart.height - 6} textAnchor="middle" className={TEXT}>
            {chart.categoryAxisLabel}
          </text>
          <text
            transform={`translate(12 ${(plot.top + plot.bottom) / 2}) rotate(-90)`}
            textAnchor="middle"
            className={TEXT}
          >
            {chart.valueAxisLabel}
          </text>
        </>
      ) : (
        <text x={(plot.left + plot.right) / 2} y={chart.height - 6} textAnchor="middle" className={TEXT}>
          {chart.valueAxisLabel}
        </text>
      )}
    </svg>
  );
}
