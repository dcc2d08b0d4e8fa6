// What a bank line's narration says about whose transfer it is, and how well its amount fits
// (docs/decisions/1241). In order of trust: an invoice number written in the narration, then the
// client's bank account number or name, then the amount alone, where an amount short by the
// client's withholding is a match as good as the balance itself. Pure: the presenter reads the
// invoices and clients these name, and the match command plans the receipt with `planMatch`.
import { grossUp, settle, settleFromCash, type WithholdingRates } from "~/rules/withholding";
import { add, compare, sub, toFixed } from "~/utils/money";

export type MatchRule = "invoice" | "account" | "name" | "amount";
export const RULE_ORDER: readonly MatchRule[] = ["invoice", "account", "name", "amount"];

/**
 * How the line's cash fits the invoices proposed: their balances exactly, their balances less
 * what the client withholds ("withholding"), less than that ("part"), more ("over"), or no
 * invoice named ("oldest": the receipt goes to the client's oldest due first).
 */
export type MatchFit = "exact" | "withholding" | "part" | "over" | "oldest";
const FIT_ORDER: readonly MatchFit[] = ["exact", "withholding", "part", "oldest", "over"];

/**
 * Invoice numbers written after "INV", "invoice" or "#" ("INV 127", "inv#127/128",
 * "Invoice No. 131 & 132", "#140"): numbers alone are not read, as a narration is full of them.
 */
export function invoiceNumbersIn(text: string): string[] {
  const found = new Set<string>();
  const list = String.raw`(\d{1,18}(?:\s*(?:[,/&+]|and)\s*(?:#\s*)?\d{1,18})*)`;
  const patterns = [
    new RegExp(String.raw`\binv(?:oice)?s?\.?\s*(?:no\.?|nos\.?|number)?\s*[:#.-]?\s*` + list, "gi"),
    new RegExp(String.raw`#\s*` + list, "g"),
  ];
  for (const pattern of patterns)
    for (const m of text.matchAll(pattern))
      for (const no of m[1].match(/\d{1,18}/g) ?? []) if (found.size < 20) found.add(no.replace(/^0+(?=\d)/, ""));
  return [...found];
}

/** Ten-digit runs (a Nigerian NUBAN account number) in a narration, at most five. */
export const accountNumbersIn = (text: string): string[] =>
  [...new Set(text.match(/(?<!\d)\d{10}(?!\d)/g) ?? [])].slice(0, 5);

const NAME_NOISE = new Set([
  "ltd",
  "limited",
  "plc",
  "nig",
  "nigeria",
  "co",
  "company",
  "enterprise",
  "enterprises",
  "ventures",
  "inc",
  "the",
  "and",
]);

/** A name as a narration would spell it: lower case words, company suffixes dropped. */
export function nameKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")
    .filter((w) => w && !NAME_NOISE.has(w))
    .join(" ");
}

/** Whether a narration names the client: its name's words, whole, in a row (four letters at least). */
export function namesClient(narration: string, clientName: string): boolean {
  const key = nameKey(clientName);
  if (key.replace(/ /g, "").length < 4) return false;
  return ` ${nameKey(narration)} `.includes(` ${key} `);
}

export type OwedInvoice = { id: number; invoiceNo: string; balance: string; taxRate: string };
export type ClientRates = Pick<WithholdingRates, "whtRate" | "withholdsVat">;

const ratesOf = (invoice: OwedInvoice, client: ClientRates): WithholdingRates => ({
  vatRate: invoice.taxRate,
  whtRate: client.whtRate,
  withholdsVat: client.withholdsVat,
});

/** How `cash` fits settling these invoices whole (see MatchFit). */
export function fitOf(cash: string, invoices: readonly OwedInvoice[], client: ClientRates): MatchFit {
  if (!invoices.length) return "oldest";
  const balances = toFixed(add("0", ...invoices.map((i) => i.balance)));
  if (compare(cash, balances) === 0) return "exact";
  const net = toFixed(add("0", ...invoices.map((i) => settle(i.balance, ratesOf(i, client)).cash)));
  if (compare(cash, net) === 0) return "withholding";
  return compare(cash, net) < 0 ? "part" : "over";
}

/**
 * The settled amounts whose cash could be `cash` for a client at these rates: the cash itself and
 * the gross-up of it for each set of rates, a kobo either side (the gross-up's rounding); each
 * candidate is then checked exactly with `fitOf`.
 */
export function settledCandidates(cash: string, rates: readonly WithholdingRates[]): string[] {
  const out = new Set([toFixed(cash)]);
  for (const r of rates) {
    if (compare(r.whtRate, "0") <= 0 && !r.withholdsVat) continue;
    const s = grossUp(cash, r).settled;
    for (const x of [sub(s, "0.01"), s, add(s, "0.01")]) out.add(toFixed(x));
  }
  return [...out];
}

/**
 * The receipt a confirmed match records, for `cash` over these invoices in order: each settled
 * whole while the cash covers what it leaves to pay, the last one by the gross-up of what is left.
 * Cash left after all goes to the client's other invoices, oldest due first (the receipt's rule).
 */
export function planMatch(cash: string, invoices: readonly OwedInvoice[], client: ClientRates) {
  const allocations: { invoiceId: number; amount: string }[] = [];
  let left = toFixed(cash);
  for (const invoice of invoices) {
    if (compare(left, "0") <= 0) break;
    if (compare(invoice.balance, "0") <= 0) continue;
    const share = settleFromCash(left, invoice.balance, ratesOf(invoice, client));
    allocations.push({ invoiceId: invoice.id, amount: share.settled });
    left = toFixed(sub(left, share.cash));
  }
  return allocations;
}

export type Proposal = {
  rule: MatchRule;
  clientId: number;
  clientName: string;
  invoices: OwedInvoice[];
  fit: MatchFit;
};

/**
 * The proposals in the order shown: by rule, then by fit; one per client and invoice set (the
 * most trusted rule keeps it), at most `max`.
 */
export function rankProposals(proposals: readonly Proposal[], max = 3): Proposal[] {
  const sorted = [...proposals].sort(
    (a, b) =>
      RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule) || FIT_ORDER.indexOf(a.fit) - FIT_ORDER.indexOf(b.fit),
  );
  const seen = new Set<string>();
  const out: Proposal[] = [];
  for (const p of sorted) {
    const key = `${p.clientId}:${p.invoices.map((i) => i.id).join(",")}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
    if (out.length >= max) break;
  }
  return out;
}
