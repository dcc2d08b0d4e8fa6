// The invoice lists' query strings: the list's filters and the Generate Invoice picker's search.
// Values that cannot match anything are dropped; `invalid` names the first for an /api route.
import { isValidDate } from "~/utils/dates";
import { parseId, parseInvoiceNo } from "~/utils/params";
import { searchTerm } from "~/utils/text";

export type PickerFilters = { agent?: string; date?: string; location?: string };

export function parsePickerFilters(params: URLSearchParams): PickerFilters {
  const filters: PickerFilters = {};
  const agent = searchTerm(params.get("agent"), 200);
  if (agent) filters.agent = agent;
  const location = searchTerm(params.get("location"), 200);
  if (location) filters.location = location;
  const date = params.get("date");
  if (date && isValidDate(date)) filters.date = date;
  return filters;
}

/** A stored or shown status, or "credit": the invoices carrying a client credit (docs/decisions/0920). */
export type InvoiceStatusFilter = "pending" | "partial" | "paid" | "overdue" | "void" | "credit";

const INVOICE_STATUSES: InvoiceStatusFilter[] = ["pending", "partial", "overdue", "paid", "void", "credit"];

export type InvoiceFilters = {
  status?: InvoiceStatusFilter | null;
  clientId?: number | null;
  /** Due-date range. */
  from?: string | null;
  to?: string | null;
  invoiceNo?: string | null;
  invoiceIds?: number[];
};

/**
 * Filters from a query string. Values that cannot match anything are dropped (a page shows
 * the unfiltered list); `invalid` names the first so an /api route can answer 400.
 */
export function parseInvoiceFilters(params: URLSearchParams): { filters: InvoiceFilters; invalid: string | null } {
  const filters: InvoiceFilters = {};
  let invalid: string | null = null;
  const status = params.get("status");
  if (status) {
    if ((INVOICE_STATUSES as string[]).includes(status)) filters.status = status as InvoiceStatusFilter;
    else invalid ??= "The status is not valid";
  }
  const client = params.get("clientId");
  if (client) {
    filters.clientId = parseId(client);
    if (filters.clientId === null) invalid ??= "The client id is not valid";
  }
  for (const key of ["from", "to"] as const) {
    const value = params.get(key);
    if (!value) continue;
    if (isValidDate(value)) filters[key] = value;
    else invalid ??= `The ${key} date is not valid`;
  }
  const no = params.get("invoiceNo")?.trim().replace(/^#/, "");
  if (no) {
    filters.invoiceNo = parseInvoiceNo(no, { search: true });
    if (filters.invoiceNo === null) invalid ??= "The invoice number is not valid";
  }
  return { filters, invalid };
}

export const isFiltered = (f: InvoiceFilters) => Boolean(f.status || f.clientId || f.from || f.to || f.invoiceNo);
