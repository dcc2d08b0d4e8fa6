// The Payments list's filters as its address carries them, for the page, its export and /api.
import { isValidDate } from "~/utils/dates";
import { parseId, parseInvoiceNo } from "~/utils/params";
import { hasControlCharacters } from "~/utils/text";

export type PaymentFilters = { from?: string; to?: string; clientId?: number; invoiceNo?: string; reference?: string };

/** Filters from a query string; what cannot match is dropped, and `invalid` names it for /api. */
export function parsePaymentFilters(params: URLSearchParams): { filters: PaymentFilters; invalid: string | null } {
  const filters: PaymentFilters = {};
  let invalid: string | null = null;
  for (const key of ["from", "to"] as const) {
    const value = params.get(key);
    if (!value) continue;
    if (isValidDate(value)) filters[key] = value;
    else invalid ??= `The ${key} date is not valid`;
  }
  const client = params.get("clientId");
  if (client) {
    const id = parseId(client);
    if (id === null) invalid ??= "The client id is not valid";
    else filters.clientId = id;
  }
  const no = params.get("invoiceNo")?.trim().replace(/^#/, "");
  if (no) {
    const invoiceNo = parseInvoiceNo(no, { search: true });
    if (invoiceNo === null) invalid ??= "The invoice number is not valid";
    else filters.invoiceNo = invoiceNo;
  }
  const reference = params.get("reference")?.trim();
  if (reference && hasControlCharacters(reference)) invalid ??= "The reference is not valid";
  else if (reference) filters.reference = reference.slice(0, 200);
  return { filters, invalid };
}

export const isPaymentFiltered = (f: PaymentFilters) =>
  Boolean(f.from || f.to || f.clientId || f.invoiceNo || f.reference);
