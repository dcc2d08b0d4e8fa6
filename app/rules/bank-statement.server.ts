// Reading a bank's CSV statement (docs/decisions/1241): a small RFC 4180 reader, the account's
// column mapping applied to it (the header row found by the names it maps), amounts read as exact
// decimal strings ("1,234,567.50", "(250.00)", "₦5,000 CR"), dates in the mapping's format
// (date-fns), and each line's fingerprint, which makes re-reading an overlapping statement add
// nothing twice. Pure: the import model writes what this reads.
import { createHash } from "node:crypto";
import { format as formatDay, isValid, parse as parseDay } from "date-fns";
import type { BankMapping } from "~/db.server";
import { compare, isDecimalString, toFixed } from "~/utils/money";
import { fail, type Failure } from "~/utils/result";

/** The largest file read: a month of a busy account is a few hundred KB. */
export const MAX_STATEMENT_BYTES = 2 * 1024 * 1024;
/** The most lines one file may hold (the header and preamble apart). */
export const MAX_STATEMENT_LINES = 10_000;
/** Rows above the header a bank may print (account name, period, opening balance). */
const MAX_PREAMBLE_ROWS = 20;

export type StatementLine = { date: string; amount: string; narration: string; reference: string | null };
export type ReadStatement = { lines: StatementLine[]; skipped: number };

const tooLarge = () =>
  fail(413, `The file has more than ${MAX_STATEMENT_LINES.toLocaleString("en-NG")} lines: split it by dates`, {
    file: [`At most ${MAX_STATEMENT_LINES.toLocaleString("en-NG")} lines a file`],
  });

const fileFailure = (message: string, status: 400 | 413 = 400) => fail(status, message, { file: [message] });

/**
 * The rows of a CSV text (RFC 4180: commas, CRLF or LF, fields in double quotes with "" inside).
 * Refuses what is no CSV: binary bytes, a quote left open, a single column throughout.
 */
export function readCsv(text: string, maxRows = MAX_STATEMENT_LINES + MAX_PREAMBLE_ROWS + 1): string[][] | Failure {
  if (text.includes("\u0000")) return fileFailure("The file is not a CSV: it holds binary data");
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(field);
    field = "";
    if (row.length > 1 || row[0].trim() !== "") rows.push(row);
    row = [];
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field.trim() === "") {
      quoted = true;
      field = "";
    } else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
      if (rows.length > maxRows) return tooLarge();
    } else field += c;
  }
  if (quoted)
    return fileFailure(`The file is not a CSV: a quoted field opened on line ${rows.length + 1} is never closed`);
  if (field !== "" || row.length) endRow();
  if (rows.length > maxRows) return tooLarge();
  if (!rows.length) return fileFailure("The file is empty");
  if (rows.every((r) => r.length < 2)) return fileFailure("The file is not a CSV: no line has two columns");
  return rows;
}

/**
 * An amount cell as a decimal string with two places ("" and "-" are null: no amount), or
 * "invalid". Thousands separators, a naira sign or NGN, brackets or a leading minus for a
 * negative, and a trailing CR (plus) or DR (minus) are read; never through a float.
 */
export function parseAmount(raw: string): string | null | "invalid" {
  let s = raw.replace(/\s+/g, "").replace(/^(NGN|₦|N)(?=[\d(+-])/i, "");
  if (s === "" || s === "-") return null;
  let negative = false;
  const bracketed = /^\((.*)\)$/.exec(s);
  if (bracketed) [negative, s] = [true, bracketed[1]];
  const side = /(CR|DR)$/i.exec(s);
  if (side) [negative, s] = [negative !== (side[1].toUpperCase() === "DR"), s.slice(0, -2)];
  if (s.startsWith("-") || s.startsWith("+")) [negative, s] = [negative !== s.startsWith("-"), s.slice(1)];
  s = s.replace(/^(NGN|₦)/i, "");
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(s)) return "invalid";
  const plain = s.replace(/,/g, "");
  if (!isDecimalString(plain) || plain.replace(/^0+/, "").split(".")[0].length > 12) return "invalid";
  const fixed = toFixed(plain);
  return negative && compare(fixed, "0") !== 0 ? `-${fixed}` : fixed;
}

/** A date cell in `format` as yyyy-MM-dd, or null; a time after the date is ignored. */
export function parseDate(raw: string, format: string): string | null {
  const value = raw.trim().replace(/[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s*[AP]M)?$/i, "");
  if (!value) return null;
  const day = parseDay(value, format, new Date(2000, 0, 1));
  if (!isValid(day) || day.getFullYear() < 1990 || day.getFullYear() > 2099) return null;
  return formatDay(day, "yyyy-MM-dd");
}

const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/** The mapping's named columns: the form field each comes from and its header name. */
function mappedColumns(m: BankMapping): [field: keyof BankMapping, name: string][] {
  const named: (readonly [keyof BankMapping, string | undefined])[] = [
    ["dateColumn", m.dateColumn],
    ["narrationColumn", m.narrationColumn],
    ["referenceColumn", m.referenceColumn],
    ...(m.amountStyle === "signed"
      ? ([["amountColumn", m.amountColumn]] as const)
      : ([
          ["creditColumn", m.creditColumn],
          ["debitColumn", m.debitColumn],
        ] as const)),
  ];
  return named.filter((x) => !!x[1]?.trim()).map(([field, name]) => [field, name!]);
}

/**
 * The statement's lines as `mapping` reads `rows`. The header is the first row (of the first 20)
 * holding every mapped name; below it, a row with no amount (an opening balance, a total) is
 * skipped, and a row whose amount or date does not read is refused with its line number.
 */
export function applyMapping(
  rows: string[][],
  mapping: BankMapping,
  today: string,
): { ok: true; data: ReadStatement } | Failure {
  const columns = mappedColumns(mapping);
  let header = -1;
  let best: { at: number; missing: typeof columns } = { at: 0, missing: columns };
  for (let r = 0; r < Math.min(rows.length, MAX_PREAMBLE_ROWS + 1) && header < 0; r++) {
    const names = rows[r].map(norm);
    const missing = columns.filter(([, name]) => !names.includes(norm(name)));
    if (!missing.length) header = r;
    else if (missing.length < best.missing.length) best = { at: r, missing };
  }
  if (header < 0) {
    const fieldErrors = Object.fromEntries(
      best.missing.map(([field, name]) => [field, [`The file has no column named "${name}"`]]),
    );
    const [field, name] = best.missing[0];
    const what = field === "creditColumn" ? "credit column" : `column "${name}"`;
    return fail(400, `The mapping does not fit the file: it has no ${what} (named "${name}")`, fieldErrors);
  }
  const at = (name: string | undefined) => (name ? rows[header].map(norm).indexOf(norm(name)) : -1);
  const idx = Object.fromEntries(columns.map(([field, name]) => [field, at(name)])) as Record<string, number>;
  const cell = (row: string[], field: string) => (idx[field] >= 0 ? (row[idx[field]] ?? "") : "");
  const lines: StatementLine[] = [];
  let skipped = 0;
  for (let r = header + 1; r < rows.length; r++) {
    const row = rows[r];
    const where = `Line ${r + 1}`;
    let amount: string | null;
    if (mapping.amountStyle === "signed") {
      const a = parseAmount(cell(row, "amountColumn"));
      if (a === "invalid")
        return fail(400, `${where}: the amount "${cell(row, "amountColumn")}" is not a number`, {
          file: [`${where}: amount`],
        });
      amount = a;
    } else {
      const credit = parseAmount(cell(row, "creditColumn"));
      const debit = parseAmount(cell(row, "debitColumn"));
      if (credit === "invalid" || debit === "invalid")
        return fail(400, `${where}: the ${credit === "invalid" ? "credit" : "debit"} is not a number`, {
          file: [`${where}: ${credit === "invalid" ? "credit" : "debit"}`],
        });
      const c = credit && compare(credit, "0") !== 0 ? credit.replace(/^-/, "") : null;
      const d = debit && compare(debit, "0") !== 0 ? debit.replace(/^-/, "") : null;
      if (c && d) return fail(400, `${where}: both a credit and a debit`, { file: [`${where}: credit and debit`] });
      amount = c ?? (d ? `-${d}` : null);
    }
    if (amount === null || compare(amount, "0") === 0) {
      skipped++;
      continue;
    }
    const date = parseDate(cell(row, "dateColumn"), mapping.dateFormat);
    if (!date)
      return fail(400, `${where}: the date "${cell(row, "dateColumn")}" is not a ${mapping.dateFormat} date`, {
        dateFormat: [`${where} is not a ${mapping.dateFormat} date`],
      });
    if (date > today)
      return fail(400, `${where}: the date ${date} is in the future`, { file: [`${where}: future date`] });
    if (lines.length >= MAX_STATEMENT_LINES) return tooLarge();
    const reference = cell(row, "referenceColumn").trim().replace(/\s+/g, " ").slice(0, 200);
    lines.push({
      date,
      amount,
      narration: cell(row, "narrationColumn").trim().replace(/\s+/g, " ").slice(0, 500),
      reference: reference || null,
    });
  }
  if (!lines.length) return fileFailure("The file has no line with an amount under its header");
  return { ok: true, data: { lines, skipped } };
}

/**
 * Each line's fingerprint: a hash of its date, amount, reference and narration (spaces and case
 * as the bank may vary them) and how many identical lines came before it in the same file, so two
 * genuinely identical transfers on one day stay two lines, and re-reading them adds neither.
 */
export function fingerprints(lines: readonly StatementLine[]): string[] {
  const seen = new Map<string, number>();
  return lines.map((l) => {
    const key = [l.date, l.amount, norm(l.reference ?? ""), norm(l.narration)].join("\u001f");
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return createHash("sha256").update(`${key}\u001f${n}`).digest("hex");
  });
}
