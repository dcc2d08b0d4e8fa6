// Exact decimal arithmetic for naira, tons and percentages.
// Values travel as decimal strings ("30.55"); arithmetic uses BigInt units of 10^-scale,
// so nothing ever passes through a binary float. Rounding is half-up (away from zero),
// once, at the end (DESIGN.md).

export type Decimal = { readonly units: bigint; readonly scale: number };

const DECIMAL_RE = /^(-)?(\d+)(?:\.(\d+))?$/;

export function isDecimalString(value: string) {
  return DECIMAL_RE.test(value);
}

export function dec(value: string | number | bigint | Decimal | null | undefined): Decimal {
  if (value === null || value === undefined || value === "") return { units: 0n, scale: 0 };
  if (typeof value === "object") return value;
  if (typeof value === "bigint") return { units: value, scale: 0 };
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new TypeError("dec() takes integers or decimal strings, never floats");
    return { units: BigInt(value), scale: 0 };
  }
  const match = DECIMAL_RE.exec(value.trim());
  if (!match) throw new TypeError(`Not a decimal: ${value}`);
  const [, sign, whole, fraction = ""] = match;
  const units = BigInt(whole + fraction) * (sign ? -1n : 1n);
  return { units, scale: fraction.length };
}

function rescale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

type Input = Parameters<typeof dec>[0];

export function add(...values: Input[]): Decimal {
  const ds = values.map(dec);
  const scale = Math.max(0, ...ds.map((d) => d.scale));
  return { units: ds.reduce((sum, d) => sum + rescale(d, scale), 0n), scale };
}

export function sub(a: Input, b: Input): Decimal {
  const [x, y] = [dec(a), dec(b)];
  const scale = Math.max(x.scale, y.scale);
  return { units: rescale(x, scale) - rescale(y, scale), scale };
}

export function mul(a: Input, b: Input): Decimal {
  const [x, y] = [dec(a), dec(b)];
  return { units: x.units * y.units, scale: x.scale + y.scale };
}

export function compare(a: Input, b: Input): -1 | 0 | 1 {
  const diff = sub(a, b).units;
  return diff === 0n ? 0 : diff < 0n ? -1 : 1;
}

export const isNegative = (a: Input) => dec(a).units < 0n;

/** Rounds half away from zero to `places` decimals. */
export function round(a: Input, places = 2): Decimal {
  const d = dec(a);
  if (d.scale <= places) return { units: rescale(d, places), scale: places };
  const divisor = 10n ** BigInt(d.scale - places);
  const negative = d.units < 0n;
  const abs = negative ? -d.units : d.units;
  let q = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) q += 1n;
  return { units: negative ? -q : q, scale: places };
}

/** The decimal as a string with exactly `places` decimals (rounded half-up). */
export function toFixed(a: Input, places = 2): string {
  const { units } = round(a, places);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const fraction = places > 0 ? "." + digits.slice(-places) : "";
  return (negative ? "-" : "") + whole + fraction;
}

export function sum(values: Input[]): Decimal {
  return add(...values);
}

function groupThousands(whole: string) {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** 1234.5 -> "1,234.50" */
export function formatAmount(a: Input, places = 2): string {
  const fixed = toFixed(a, places);
  const negative = fixed.startsWith("-");
  const [whole, fraction] = (negative ? fixed.slice(1) : fixed).split(".");
  return (negative ? "-" : "") + groupThousands(whole) + (fraction ? "." + fraction : "");
}

/**
 * Tons as people read them: two decimals, three when the weight is not a whole ten kilograms
 * (a weighbridge's net, docs/decisions/1220). "30.550" → "30.55", "30.123" → "30.123".
 */
export function formatTons(a: Input): string {
  const exact = round(a, 3);
  return formatAmount(exact, exact.units % 10n === 0n ? 2 : 3);
}

export const NAIRA = "\u20a6";

/** Naira with separators: "₦1,234.50". */
export function formatNaira(a: Input): string {
  const s = formatAmount(a);
  return s.startsWith("-") ? `-${NAIRA}${s.slice(1)}` : `${NAIRA}${s}`;
}

const MILLION = dec(1_000_000);

/** Spec section 9: at or above a million, "₦1.2M"; otherwise "₦999,999.50". */
export function formatNairaCompact(a: Input): string {
  const d = dec(a);
  const abs = d.units < 0n ? { units: -d.units, scale: d.scale } : d;
  if (compare(abs, MILLION) < 0) return formatNaira(d);
  const millions = round({ units: abs.units, scale: abs.scale + 6 }, 1);
  return `${d.units < 0n ? "-" : ""}${NAIRA}${formatAmount(millions, 1)}M`;
}

type ParsedInput = { ok: true; value: string } | { ok: false; message: string };

/**
 * Parses what a person typed in a money or tons field: digits with optional thousands commas
 * and at most `places` decimals ("1,234.50"). Returns the plain decimal string ("1234.50").
 */
export function parseDecimalInput(
  raw: string,
  { places = 2, precision = 12, label = "Amount" }: { places?: number; precision?: number; label?: string } = {},
): ParsedInput {
  const value = raw.trim().replace(/,/g, "");
  if (value === "") return { ok: false, message: `${label} is required` };
  if (value.startsWith("-")) return { ok: false, message: `${label} cannot be negative` };
  const match = /^(\d*)(?:\.(\d*))?$/.exec(value);
  if (!match || (match[1] === "" && !match[2])) return { ok: false, message: `${label} must be a number` };
  const whole = (match[1] || "0").replace(/^0+(?=\d)/, "");
  const fraction = match[2] ?? "";
  if (fraction.length > places) return { ok: false, message: `${label} can have at most ${places} decimals` };
  if (whole.length > precision - places) return { ok: false, message: `${label} is too large` };
  return { ok: true, value: fraction ? `${whole}.${fraction}` : whole };
}

/** Formats while typing (spec section 5): digits and one dot, commas, at most 2 decimals. */
export function formatMoneyWhileTyping(raw: string, places = 2): string {
  const cleaned = raw.replace(/[^\d.]/g, "");
  const dot = cleaned.indexOf(".");
  const whole = (dot === -1 ? cleaned : cleaned.slice(0, dot)).replace(/^0+(?=\d)/, "");
  const fraction =
    dot === -1
      ? null
      : cleaned
          .slice(dot + 1)
          .replace(/\./g, "")
          .slice(0, places);
  return groupThousands(whole) + (fraction === null ? "" : "." + fraction);
}

/**
 * `part` as a percentage of `whole`, rounded half-up to `places` decimals, exact ("1.7" for
 * 1.69%); trailing zeros are dropped ("50", not "50.0"). "0" when `whole` is zero.
 */
export function percentOf(part: Input, whole: Input, places = 1): string {
  const [p, w] = [dec(part), dec(whole)];
  if (w.units === 0n) return "0";
  // part/whole * 100, carried to two more decimals than shown, then rounded once.
  const scale = Math.max(p.scale, w.scale);
  const extra = places + 2;
  const quotient = (rescale(p, scale) * 100n * 10n ** BigInt(extra)) / rescale(w, scale);
  const fixed = toFixed({ units: quotient, scale: extra }, places);
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}
