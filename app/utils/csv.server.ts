// CSV exports of the lists (docs/decisions/0952): one shape for every export. The rows come from
// the model's keyset batches and each batch is written by csv-stringify as the response pulls
// it, so the server holds one batch at a time however long the list (as the JSON streams of
// decision 0502 do).
import { stringify } from "csv-stringify/sync";
import { dayIn } from "./dates";
import { env } from "./env.server";
import { toFixed } from "./money";
import { streamBatches } from "./batches.server";
import { firstBatchRead } from "./unavailable.server";

/**
 * How a column is written: `text` is guarded against spreadsheet formulas; `amount` is a plain
 * decimal with two places (never guarded: a negative profit stays a number); `date` is
 * yyyy-MM-dd, and a timestamp (a Date or an ISO string with a time) is written as its day in the
 * business time zone, never its UTC day (decision 0952); `number` (tons, counts) as
 * stored.
 */
type CsvKind = "text" | "amount" | "date" | "number";
type CsvCell = string | number | Date | null | undefined;
export type CsvColumn<T> = { header: string; kind: CsvKind; value: (row: T) => CsvCell };

// A cell a spreadsheet would read as a formula (or a DDE payload) starts with one of these.
const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes `'` to text a spreadsheet would run as a formula; other text is unchanged. */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell as written: null and undefined are empty; `timeZone` is the business time zone. */
export function csvCell(kind: CsvKind, value: CsvCell, timeZone = env().APP_TIME_ZONE): string {
  if (value === null || value === undefined || value === "") return "";
  if (value instanceof Date) return dayIn(timeZone, value);
  const text = String(value);
  switch (kind) {
    case "amount":
      return toFixed(text);
    case "date":
      return dayIn(timeZone, text);
    case "number":
      return text;
    case "text":
      return guardFormula(text);
  }
}

const OPTIONS = { record_delimiter: "\r\n" as const };

/** `export-2026-11-23.csv`-style names: letters, digits and dashes only. */
export function csvFilename(name: string, today: string) {
  return `${name.replace(/[^a-z0-9-]/gi, "-")}-${today}.csv`;
}

/**
 * A streamed CSV download: a byte-order mark and the header row first (so spreadsheet
 * programs read UTF-8 and show ₦), then one chunk per batch as the client reads. A database
 * error mid-stream aborts the body: the download fails rather than looking complete. Each batch
 * waits for a connection on a budget of its own (`nextBatch`). Routes answer through
 * `exportResponse`, which reads the first batch before the answer is made.
 */
export function csvResponse<T>(filename: string, columns: CsvColumn<T>[], batches: AsyncIterable<T[]>): Response {
  const timeZone = env().APP_TIME_ZONE;
  const body = streamBatches(batches, {
    head: stringify([columns.map((c) => c.header)], { ...OPTIONS, bom: true }),
    write: (rows) =>
      stringify(
        rows.map((row) => columns.map((c) => csvCell(c.kind, c.value(row), timeZone))),
        OPTIONS,
      ),
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

export type CsvExport<T> = { filename: string; columns: CsvColumn<T>[]; batches: AsyncIterable<T[]> };
/** A query that cannot be exported: the route answers 400 with the message. */
export type BadExport = { invalid: string };

/**
 * An export route's answer: the streamed file, or a 400 naming what is wrong with the query. The
 * first batch is read before the answer, so a database that cannot answer is the usual 503 with
 * Retry-After rather than a 200 whose download breaks off.
 */
export async function exportResponse<T>(result: CsvExport<T> | BadExport): Promise<Response> {
  if ("invalid" in result) {
    return new Response(result.invalid, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return csvResponse(result.filename, result.columns, await firstBatchRead(result.batches));
}
