// The Withholding page and its JSON (docs/decisions/1240): what clients withheld, newest first,
// keyset-paged on (date, id) through the withholdings' indexes, each outstanding until its
// certificate is recorded; reversals and what they took back are left out.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { csvFilename, type BadExport, type CsvColumn, type CsvExport } from "~/utils/csv.server";
import { isValidDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import { add, toFixed } from "~/utils/money";
import { parseId, type Page, type PageRequest } from "~/utils/params";

export const WITHHOLDING_STATUSES = ["outstanding", "received"] as const;
export type WithholdingStatus = (typeof WITHHOLDING_STATUSES)[number];
export type WithholdingFilters = { status?: WithholdingStatus; clientId?: number; from?: string; to?: string };

export const WITHHOLDING_PAGE_SIZE = 50;

/** Filters from a query string; `invalid` names what cannot match (for /api: a 400). */
export function parseWithholdingFilters(params: URLSearchParams): {
  filters: WithholdingFilters;
  invalid: string | null;
} {
  const filters: WithholdingFilters = {};
  let invalid: string | null = null;
  const status = params.get("status");
  if (status) {
    if ((WITHHOLDING_STATUSES as readonly string[]).includes(status)) filters.status = status as WithholdingStatus;
    else invalid ??= "status must be outstanding or received";
  }
  const client = params.get("clientId");
  if (client) {
    const id = parseId(client);
    if (id === null) invalid ??= "The client id is not valid";
    else filters.clientId = id;
  }
  for (const key of ["from", "to"] as const) {
    const value = params.get(key);
    if (!value) continue;
    if (isValidDate(value)) filters[key] = value;
    else invalid ??= `The ${key} date is not valid`;
  }
  return { filters, invalid };
}

const w = schema.withholdings;
const KEYSET = { key: w.withholdingDate, id: w.id };
const certified = sql`exists (select 1 from withholding_certificates c where c.withholding_id = ${w.id})`;
const reversed = sql`exists (select 1 from withholdings r where r.reverses_withholding_id = ${w.id})`;

function where(f: WithholdingFilters): SQL[] {
  const out: SQL[] = [sql`${w.reversesWithholdingId} is null`, sql`not ${reversed}`];
  if (f.status === "outstanding") out.push(sql`not ${certified}`);
  if (f.status === "received") out.push(certified);
  if (f.clientId) out.push(eq(w.clientId, f.clientId));
  if (f.from) out.push(sql`${w.withholdingDate} >= ${f.from}`);
  if (f.to) out.push(sql`${w.withholdingDate} <= ${f.to}`);
  return out;
}

export type WithholdingView = {
  id: number;
  date: string;
  month: string;
  clientId: number;
  clientName: string;
  invoiceId: number;
  invoiceNo: string;
  receiptId: number;
  wht: string;
  vat: string;
  withheld: string;
  status: WithholdingStatus;
  certificateNo: string | null;
  receivedOn: string | null;
};

/** The page query itself (the scale test EXPLAINs it). */
export function withholdingPageQuery(db: Executor, filters: WithholdingFilters, page: PageRequest, limit: number) {
  const c = schema.withholdingCertificates;
  return db
    .select({
      id: w.id,
      date: w.withholdingDate,
      clientId: w.clientId,
      clientName: schema.clients.name,
      invoiceId: w.invoiceId,
      invoiceNo: schema.invoices.invoiceNo,
      receiptId: w.receiptId,
      wht: w.wht,
      vat: w.vat,
      certificateNo: c.certificateNo,
      receivedOn: c.receivedOn,
    })
    .from(w)
    .innerJoin(schema.clients, eq(schema.clients.id, w.clientId))
    .innerJoin(schema.invoices, eq(schema.invoices.id, w.invoiceId))
    .leftJoin(c, eq(c.withholdingId, w.id))
    .where(and(...where(filters), keysetWhere(KEYSET, page)))
    .orderBy(...keysetOrder(KEYSET, page))
    .limit(limit + 1);
}

export async function listWithholdings(
  actor: Actor,
  filters: WithholdingFilters = {},
  { limit = WITHHOLDING_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
): Promise<Page<WithholdingView>> {
  assertCan(actor, "payment.record", "withholdings");
  const rows = await withholdingPageQuery(await getDb(), filters, page, limit);
  const result = toPage(rows, limit, page, (r) => ({ key: r.date, id: r.id }));
  return {
    ...result,
    items: result.items.map((r) => ({
      ...r,
      month: r.date.slice(0, 7),
      withheld: toFixed(add(r.wht, r.vat)),
      status: r.certificateNo === null ? "outstanding" : "received",
    })),
  };
}

export function withholdingBatches(actor: Actor, filters: WithholdingFilters = {}, batchSize = 1000) {
  assertCan(actor, "payment.record", "withholdings");
  return keysetBatches(
    (page) => listWithholdings(actor, filters, { limit: batchSize, page }),
    (last) => ({ key: last.date, id: last.id }),
  );
}

const columns: CsvColumn<WithholdingView>[] = [
  { header: "Month", kind: "text", value: (v) => v.month },
  { header: "Date", kind: "date", value: (v) => v.date },
  { header: "Client", kind: "text", value: (v) => v.clientName },
  { header: "Invoice", kind: "text", value: (v) => v.invoiceNo },
  { header: "Receipt", kind: "number", value: (v) => v.receiptId },
  { header: "WHT", kind: "amount", value: (v) => v.wht },
  { header: "VAT withheld", kind: "amount", value: (v) => v.vat },
  { header: "Status", kind: "text", value: (v) => (v.status === "received" ? "Received" : "Outstanding") },
  { header: "Certificate", kind: "text", value: (v) => v.certificateNo },
  { header: "Received on", kind: "date", value: (v) => v.receivedOn },
];

export function withholdingsExport(
  actor: Actor,
  params: URLSearchParams,
  now = new Date(),
): CsvExport<WithholdingView> | BadExport {
  const { filters, invalid } = parseWithholdingFilters(params);
  if (invalid) return { invalid };
  return {
    filename: csvFilename("withholdings", todayIn(env().APP_TIME_ZONE, now)),
    columns,
    batches: withholdingBatches(actor, filters),
  };
}
