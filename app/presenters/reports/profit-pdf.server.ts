// The profit report as a PDF (docs/decisions/0951, 1270): landscape A4, the letterhead, the table
// as the page shows it with its foot, then the charts drawn from the same geometry the page draws
// as SVG, each with its title, axis labels and legend. Printed colours are the light theme's.
import { getBusinessDetails, getBusinessLogo } from "~/models/business.server";
import type { Actor } from "~/rules/capabilities.server";
import type { BadExport } from "~/utils/csv.server";
import { formatMonth } from "~/utils/dates";
import { formatProfitCell, GROUP_WORDS, profitColumns, unpricedNote } from "~/utils/profit-report-words";
import type { Chart, SeriesTone } from "./charts.server";
import {
  createDocument,
  fit,
  frame,
  GREY,
  letterhead,
  line,
  MARGIN,
  streamPdf,
  tableHeader,
  textWidth,
  type Doc,
} from "../pdf-kit.server";
import { loadProfitReportView, type ProfitReportView } from "./profit-page.server";
import { readProfitQuery } from "./profit-report.server";

const PRINT_TONES: Record<SeriesTone, string> = {
  blue: "#0072B2",
  orange: "#B35C00",
  vermillion: "#C2410C",
  green: "#007A5A",
};

const ROW = 14;
const SIZE = 7.5;
/**
 * The most rows a PDF prints (about nine pages of table): a longer report (ten years by agent)
 * prints its first rows, the foot of the whole period and a note sending to the CSV for the rest.
 */
export const PDF_ROWS = 300;

export async function profitReportPdf(
  actor: Actor,
  params: URLSearchParams,
  now = new Date(),
): Promise<{ stream: ReadableStream<Uint8Array>; filename: string } | BadExport> {
  const asked = readProfitQuery(params, now);
  if (!asked.ok) return { invalid: asked.message };
  const [view, business, logo] = await Promise.all([
    loadProfitReportView(actor, asked.query, { cursor: null, limit: PDF_ROWS }),
    getBusinessDetails(),
    getBusinessLogo(),
  ]);
  const doc = createDocument(
    { Title: "Profit and Tonnage", Author: business.companyName ?? "PKS", Subject: "Profit and tonnage report" },
    { layout: "landscape" },
  );
  const stream = streamPdf(doc, async () => {
    let y = letterhead(doc, business, logo, "Profit and Tonnage", [
      ["From", formatMonth(view.query.from)],
      ["To", formatMonth(view.query.to)],
      // The letterhead's values are narrow: "By month, then agent" as two short facts.
      ["Grouped by", GROUP_WORDS[view.query.by]],
      ...(view.query.then ? [["Each month by", GROUP_WORDS[view.query.then]] as [string, string]] : []),
    ]);
    y = drawTable(doc, view, y);
    // Two charts side by side, a row at a time, on the table's page when they fit.
    const { content, bottom } = frame(doc);
    const columnWidth = (content - 16) / 2;
    for (let i = 0; i < view.charts.length; i += 2) {
      const pair = view.charts.slice(i, i + 2);
      const scales = pair.map((chart) => Math.min(1, columnWidth / chart.width));
      const height = Math.max(...pair.map((chart, j) => chart.height * scales[j])) + 24;
      if (y + height > bottom) {
        doc.addPage();
        y = MARGIN;
      }
      const tops = pair.map((chart, j) => drawChart(doc, chart, MARGIN + j * (columnWidth + 16), y + 8, scales[j]));
      y = Math.max(...tops);
    }
  });
  const { from, to, by, then } = asked.query;
  return { stream, filename: `profit-${from}-to-${to}-by-${by}${then ? `-${then}` : ""}.pdf` };
}

function drawTable(doc: Doc, view: ProfitReportView, top: number) {
  const { content, bottom } = frame(doc);
  const columns = profitColumns(view.withTickets);
  const byMonth = view.query.by === "month";
  const dimension = byMonth ? view.query.then : view.query.by;
  const names = [...(byMonth ? [GROUP_WORDS.month] : []), ...(dimension ? [GROUP_WORDS[dimension]] : [])];
  // Each figure column as wide as its widest cell (ten years' foot runs to ₦ billions); when they
  // all do not fit beside the names, the figures get smaller rather than run into each other.
  const needed = columns.map(
    (c) =>
      Math.max(
        40,
        ...[view.totals, ...view.rows].map((r) =>
          textWidth(doc, formatProfitCell(c, r), { size: SIZE, weight: "bold" }),
        ),
      ) + 8,
  );
  const room = content - names.length * 90;
  const shrink = Math.min(1, room / needed.reduce((a, b) => a + b, 0));
  const figureSize = Math.max(5, SIZE * shrink);
  const widths = needed.map((w) => w * shrink);
  const nameWidth = (content - widths.reduce((a, b) => a + b, 0)) / Math.max(1, names.length);
  const heads = [
    ...names.map((title) => ({ title, width: nameWidth, align: "left" as const })),
    ...columns.map((c, i) => ({ title: c.header, width: widths[i], align: "right" as const })),
  ];
  let y = tableHeader(doc, heads, top, { size: 6.5, rowHeight: 12, inset: 3 });
  const cells = (nameCells: string[], figures: Parameters<typeof formatProfitCell>[1], bold = false) => {
    if (y + ROW > bottom) {
      doc.addPage();
      y = tableHeader(doc, heads, MARGIN, { size: 6.5, rowHeight: 12, inset: 3 });
    }
    let x = MARGIN;
    for (const name of nameCells) {
      line(doc, fit(doc, name, nameWidth - 4, { size: SIZE, weight: bold ? "bold" : "regular" }), x, y, {
        size: SIZE,
        weight: bold ? "bold" : "regular",
      });
      x += nameWidth;
    }
    columns.forEach((c, i) => {
      line(doc, formatProfitCell(c, figures), x - 3, y, {
        size: figureSize,
        weight: bold ? "bold" : "regular",
        align: "right",
        width: widths[i],
      });
      x += widths[i];
    });
    y += ROW;
  };
  for (const row of view.rows) {
    cells(
      [
        ...(byMonth ? [formatMonth(row.month!)] : []),
        ...(dimension ? [row.agentName ?? row.clientName ?? row.site ?? ""] : []),
      ],
      row,
    );
  }
  doc
    .moveTo(MARGIN, y - 2)
    .lineTo(MARGIN + content, y - 2)
    .lineWidth(0.8)
    .strokeColor("#94a3b8")
    .stroke();
  cells(
    names.map((_, i) => (i === 0 ? "Total" : "")),
    view.totals,
    true,
  );
  const note = [
    "Confirmed and invoiced deliveries count, by delivery date. Margin is the total profit over the total revenue.",
    unpricedNote(view.totals.unpricedDeliveries),
  ]
    .filter(Boolean)
    .join(" ");
  line(doc, fit(doc, note, content, { size: 7 }), MARGIN, y + 2, { size: 7, color: GREY });
  if (!view.nextCursor) return y + 16;
  const part = `The first ${view.rows.length.toLocaleString("en")} of ${view.rowCount.toLocaleString("en")} rows: the total is the whole period's, and the CSV export has every row.`;
  line(doc, fit(doc, part, content, { size: 7.5, weight: "bold" }), MARGIN, y + 13, { size: 7.5, weight: "bold" });
  return y + 28;
}

/** A chart from its geometry, scaled to fit the page; returns the y below it. */
function drawChart(doc: Doc, chart: Chart, left: number, top: number, scale: number) {
  line(doc, chart.title, left, top, { size: 10, weight: "bold" });
  let legendX = left + textWidthOf(doc, chart.title) + 16;
  if (chart.series.length > 1) {
    for (const s of chart.series) {
      doc.rect(legendX, top + 2, 8, 8).fill(PRINT_TONES[s.tone]);
      line(doc, s.name, legendX + 11, top + 1, { size: 8 });
      legendX += 70;
    }
  }
  const y0 = top + 16;
  const X = (x: number) => left + x * scale;
  const Y = (y: number) => y0 + y * scale;
  const { plot } = chart;
  const vertical = chart.orientation === "vertical";
  doc.lineWidth(0.4).strokeColor("#e2e8f0");
  for (const t of chart.valueTicks) {
    if (vertical) {
      doc.moveTo(X(plot.left), Y(t.at)).lineTo(X(plot.right), Y(t.at)).stroke();
      line(doc, t.label, X(plot.left) - 64, Y(t.at) - 3.5, { size: 6.5, color: GREY, align: "right", width: 60 });
    } else {
      doc.moveTo(X(t.at), Y(plot.top)).lineTo(X(t.at), Y(plot.bottom)).stroke();
      const w = 60;
      line(doc, t.label, X(t.at) - w / 2, Y(plot.bottom) + 3, {
        size: 6.5,
        color: GREY,
        align: "right",
        width: w / 2 + 12,
      });
    }
  }
  for (const b of chart.bars) {
    doc
      .rect(X(b.x), Y(b.y), Math.max(b.width * scale, 0.3), Math.max(b.height * scale, 0.3))
      .fill(PRINT_TONES[chart.series[b.series].tone]);
  }
  doc.lineWidth(0.8).strokeColor("#64748b");
  if (vertical) doc.moveTo(X(plot.left), Y(chart.zero)).lineTo(X(plot.right), Y(chart.zero)).stroke();
  else doc.moveTo(X(chart.zero), Y(plot.top)).lineTo(X(chart.zero), Y(plot.bottom)).stroke();
  for (const t of chart.categoryTicks) {
    if (vertical)
      line(doc, t.label, X(t.at) - 30, Y(plot.bottom) + 3, {
        size: 6.5,
        color: GREY,
        align: "right",
        width: 30 + textHalf(doc, t.label),
      });
    else line(doc, t.label, X(plot.left) - 140, Y(t.at) - 3.5, { size: 7, align: "right", width: 136 });
  }
  const axisY = Y(chart.height) - 10;
  line(
    doc,
    vertical ? `${chart.categoryAxisLabel} · ${chart.valueAxisLabel}` : chart.valueAxisLabel,
    X(plot.left),
    axisY,
    {
      size: 7,
      color: GREY,
    },
  );
  return Y(chart.height) + 6;
}

function textWidthOf(doc: Doc, text: string) {
  return textWidth(doc, text, { size: 10, weight: "bold" });
}

function textHalf(doc: Doc, text: string) {
  doc.fontSize(6.5);
  return doc.widthOfString(text) / 2;
}
