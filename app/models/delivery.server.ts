import { and, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import {
  getDb,
  schema,
  type Delivery,
  type Executor,
  type RateSource,
  type Role,
  type Settings,
  type User,
} from "~/db.server";
import { DeliveryFiltersSchema, type DeliveryFilters } from "~/schemas/delivery";
import { safeParseFields } from "~/schemas/fields";
import { failOn, Refusal, type Failure } from "~/utils/result";
import { can } from "~/rules/capabilities.server";
import {
  deliveryProfit,
  isInvoiced,
  kobo,
  netPaymentSql,
  netPaymentToAgent,
  profitSql,
} from "~/rules/deliveries.server";
import { shortageTonsOf } from "~/rules/weights";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { PageRequest } from "~/utils/params";
import { findClientByName } from "./client.server";
import { deliveryClientName, getSettings } from "./settings.server";
import { ticketsOfDeliveries, type TicketView } from "./ticket.server";
import { DELIVERY_LIST_PARAMS, keptSearch } from "~/utils/list-search";

export const PAGE_SIZE = 50;

export type Viewer = Pick<User, "id" | "role">;

export type DeliveryView = {
  id: number;
  date: string;
  agentId: number;
  agentName: string | null;
  clientId: number | null;
  clientName: string | null;
  /** The loaded tons (docs/decisions/1220): the loading ticket's net, else the tons typed at the yard. */
  tons: string;
  truckNo: string | null;
  location: string;
  remarks: string | null;
  status: Delivery["status"];
  createdBy: string;
  invoiceId: number | null;
  createdAt: string;
  updatedAt: string;
  // The three weights (docs/decisions/1220), for every role: weights, never money.
  /** The same as `tons`, under the name the other weights share. */
  loadedTons: string;
  /** The client's ticket net; null until it is recorded, as are accepted and shortage. */
  receivedTons: string | null;
  acceptedTons: string | null;
  /** Loaded − received; negative when the client weighed more. */
  shortageTons: string | null;
  /** The received ticket's moisture reading (percent). */
  moisture: string | null;
  qualityDeductionTons: string | null;
  tickets: DeliveryTicketView[];
  // Managers and admins only:
  buyingRate?: string | null;
  sellingRate?: string | null;
  logisticsCost?: string | null;
  otherCosts?: string | null;
  otherCostsDescription?: string | null;
  mobilizationPayment?: string | null;
  offloadingCost?: string | null;
  profit?: string | null;
  /** Where each rate came from (docs/decisions/1230); source null: recorded before rate cards. */
  rateSources?: Record<RatedField, { source: RateSource | null; cardId: number | null }>;
  // Admins only:
  netPaymentToAgent?: string;
};

export type { Failure };

/** The rates a delivery snapshots, each with where it came from (docs/decisions/1230). */
export type RatedField = "buyingRate" | "sellingRate" | "offloadingCost" | "logisticsCost";

const rateSourcesOf = (row: Delivery): NonNullable<DeliveryView["rateSources"]> => ({
  buyingRate: { source: row.buyingRateSource, cardId: row.buyingRateCardId },
  sellingRate: { source: row.sellingRateSource, cardId: row.sellingRateCardId },
  offloadingCost: { source: row.offloadingCostSource, cardId: row.offloadingCostCardId },
  logisticsCost: { source: row.logisticsCostSource, cardId: row.haulageCardId },
});

/** A ticket as a delivery shows it: with the address of its photo when it has one. */
export type DeliveryTicketView = TicketView & { photoUrl?: string };

/** Where a ticket's photo is served (app/routes/_app.deliveries.$id.tickets.$kind.photo.ts). */
export const ticketPhotoUrl = (deliveryId: number, kind: TicketView["kind"]) =>
  `/deliveries/${deliveryId}/tickets/${kind}/photo`;

export const canSeeFinancials = (role: Role) => can({ role }, "delivery.financials");

/** A delivery with its names and, when they were read, its tickets. */
type Row = Delivery & { agentName: string | null; clientName: string | null; tickets?: TicketView[] };

/**
 * What a role may see of a delivery: staff never receive rates, costs, profit or net payment,
 * in HTML or JSON; net payment to agent is for admins.
 */
export function toView(row: Row, role: Role): DeliveryView {
  const view: DeliveryView = {
    id: row.id,
    date: row.date,
    agentId: row.agentId,
    agentName: row.agentName,
    clientId: row.clientId,
    clientName: row.clientName,
    tons: row.tons,
    truckNo: row.truckNo,
    location: row.location,
    remarks: row.remarks,
    status: row.status,
    createdBy: row.createdBy,
    invoiceId: row.invoiceId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    loadedTons: row.tons,
    receivedTons: row.receivedTons,
    acceptedTons: row.acceptedTons,
    shortageTons: shortageTonsOf(row),
    moisture: row.moisture,
    qualityDeductionTons: row.qualityDeductionTons,
    tickets: (row.tickets ?? []).map((t) => (t.hasPhoto ? { ...t, photoUrl: ticketPhotoUrl(row.id, t.kind) } : t)),
  };
  if (!canSeeFinancials(role)) return view;
  Object.assign(view, {
    buyingRate: row.buyingRate,
    sellingRate: row.sellingRate,
    logisticsCost: row.logisticsCost,
    otherCosts: row.otherCosts,
    otherCostsDescription: row.otherCostsDescription,
    mobilizationPayment: row.mobilizationPayment,
    offloadingCost: row.offloadingCost,
    profit: deliveryProfit(row),
    rateSources: rateSourcesOf(row),
  });
  if (can({ role }, "delivery.netPayment")) view.netPaymentToAgent = netPaymentToAgent(row);
  return view;
}

function baseSelect(db: Awaited<ReturnType<typeof getDb>>) {
  return db
    .select({ delivery: schema.deliveries, agentName: schema.agents.name, clientName: schema.clients.name })
    .from(schema.deliveries)
    .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
    .leftJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId));
}

const tk = schema.deliveryTickets;
const flatten = (r: { delivery: Delivery; agentName: string | null; clientName: string | null }): Row => ({
  ...r.delivery,
  agentName: r.agentName,
  clientName: r.clientName,
});

/**
 * The list's filters and page as a query ("" or "?…"), for the rows' Edit links (decision 0200).
 * Here, on the server, so the list's browser code (which New Delivery loads too) does not carry it.
 */
export const deliveryListSearch = (params: URLSearchParams) => keptSearch(params, DELIVERY_LIST_PARAMS);

const FILTER_NAMES = {
  from: "from date",
  to: "to date",
  status: "status",
  agentId: "agent id",
  clientId: "client id",
  site: "pick-up site",
} as const;

/**
 * For the JSON list and the CSV: the filters, and the first one in the query that could not be
 * read, as a message ("The agent id is not valid"), like the other lists' parsers. The page
 * ignores such a value and shows the list without it; a program asking for one agent's
 * deliveries must not get everyone's instead (decision 0100).
 */
export function readDeliveryFilters(params: URLSearchParams): { filters: DeliveryFilters; invalid: string | null } {
  const filters = parseFilters(Object.fromEntries(params));
  const unread = (Object.keys(FILTER_NAMES) as (keyof typeof FILTER_NAMES)[]).find(
    (name) => params.get(name) && filters[name] === undefined,
  );
  return { filters, invalid: unread ? `The ${FILTER_NAMES[unread]} is not valid` : null };
}

export function parseFilters(input: Record<string, unknown>): DeliveryFilters {
  // Query strings name only some filters; a bad value is ignored rather than failing the page.
  const parsed = safeParseFields(DeliveryFiltersSchema, input);
  return parsed.success ? parsed.data : { from: undefined, to: undefined, agentId: undefined };
}

/**
 * Newest first, `limit` rows a page, keyset pagination on (date, id): a page costs the same
 * with a hundred deliveries or a million. Staff see only the deliveries they created.
 * `limit: null` is the whole filtered list (the spec's `GET /api/deliveries`).
 */
export async function listDeliveries(
  viewer: Viewer,
  filters: DeliveryFilters,
  {
    limit = PAGE_SIZE,
    page = FIRST_PAGE,
    tickets = true,
  }: {
    limit?: number | null;
    page?: PageRequest;
    /** The page's tickets, read in one query for its ids; the CSV, which shows none, skips them. */
    tickets?: boolean;
  } = {},
) {
  const db = await getDb();
  const query = baseSelect(db)
    .where(listWhere(viewer, filters, page))
    .orderBy(...keysetOrder(KEYSET, page));
  if (limit === null) {
    const all = (await query).map(flatten);
    return { deliveries: await viewsOf(all, viewer, tickets), olderCursor: null, newerCursor: null };
  }
  const rows = (await query.limit(limit + 1)).map(flatten);
  const { items, olderCursor, newerCursor } = toPage(rows, limit, page, (r) => ({ key: r.date, id: r.id }));
  return { deliveries: await viewsOf(items, viewer, tickets), olderCursor, newerCursor };
}

/** The views of `rows`, with their tickets when asked: one query for all of them, never one a row. */
async function viewsOf(rows: Row[], viewer: Viewer, withTickets: boolean) {
  const tickets = withTickets ? await ticketsOfDeliveries(rows.map((r) => r.id)) : null;
  return rows.map((row) => toView(tickets ? { ...row, tickets: tickets.get(row.id) ?? [] } : row, viewer.role));
}

function listWhere(viewer: Viewer, filters: DeliveryFilters, page: PageRequest) {
  const where: (SQL | undefined)[] = [];
  if (!can(viewer, "delivery.viewAll")) where.push(eq(schema.deliveries.createdBy, viewer.id));
  if (filters.from) where.push(gte(schema.deliveries.date, filters.from));
  if (filters.to) where.push(lte(schema.deliveries.date, filters.to));
  if (filters.status) where.push(eq(schema.deliveries.status, filters.status));
  if (filters.agentId) where.push(eq(schema.deliveries.agentId, filters.agentId));
  // deliveries_client_date_idx and deliveries_location_date_idx (docs/decisions/1270).
  if (filters.clientId) where.push(eq(schema.deliveries.clientId, filters.clientId));
  if (filters.site) where.push(eq(schema.deliveries.location, filters.site));
  where.push(keysetWhere(KEYSET, page));
  return and(...where);
}

/** One row of the Deliveries page: the fields its table shows, money and tons as decimal strings. */
export type DeliveryListRow = {
  id: number;
  date: string;
  agentName: string | null;
  clientName: string | null;
  tons: string;
  receivedTons: string | null;
  acceptedTons: string | null;
  shortageTons: string | null;
  /** The kinds of ticket the delivery has, loading first. */
  ticketKinds: TicketView["kind"][];
  truckNo: string | null;
  location: string;
  status: Delivery["status"];
  profit?: string | null;
  netPaymentToAgent?: string | null;
};

/**
 * The query of one page of the Deliveries page's rows (exported for the plan tests): the list
 * index and the delivery row. The weights are the delivery's own columns (docs/decisions/1220);
 * which tickets a row has is one lookup in the tickets' (delivery, kind) index, in this query.
 */
export function deliveryRowsQuery(
  db: Executor,
  viewer: Viewer,
  filters: DeliveryFilters,
  page: PageRequest = FIRST_PAGE,
) {
  const d = schema.deliveries;
  return db
    .select({
      id: d.id,
      date: d.date,
      agentName: schema.agents.name,
      clientName: schema.clients.name,
      tons: d.tons,
      receivedTons: d.receivedTons,
      acceptedTons: d.acceptedTons,
      truckNo: d.truckNo,
      location: d.location,
      status: d.status,
      // Which tickets it has ("loading received"), one probe of the tickets' (delivery, kind) index a row.
      tickets: sql<
        string | null
      >`(select string_agg(${tk.kind}, ' ' order by ${tk.kind}) from ${tk} where ${tk.deliveryId} = ${d.id})`,
      ...(canSeeFinancials(viewer.role) ? { profit: kobo(profitSql()) } : {}),
      ...(can(viewer, "delivery.netPayment") ? { netPaymentToAgent: kobo(netPaymentSql()) } : {}),
    })
    .from(d)
    .leftJoin(schema.agents, eq(schema.agents.id, d.agentId))
    .leftJoin(schema.clients, eq(schema.clients.id, d.clientId))
    .where(listWhere(viewer, filters, page))
    .orderBy(...keysetOrder(KEYSET, page))
    .limit(PAGE_SIZE + 1);
}

/**
 * The Deliveries page's rows: the same filters, order and index as `listDeliveries`, but only
 * the shown columns, with profit and net payment computed by the rules' SQL twins (rounded to
 * the kobo as `deliveryProfit` and `netPaymentToAgent` round). Building the full view of 50
 * deliveries and their exact-decimal profit in JavaScript was 4% of the page's server CPU
 * (profiled). Profit for managers and admins, net payment for admins, as in `toView`.
 */
export async function listDeliveryRows(
  viewer: Viewer,
  filters: DeliveryFilters,
  { page = FIRST_PAGE }: { page?: PageRequest } = {},
) {
  const db = await getDb();
  const rows = await deliveryRowsQuery(db, viewer, filters, page);
  const shaped = toPage(rows, PAGE_SIZE, page, (r) => ({ key: r.date, id: r.id }));
  const items: DeliveryListRow[] = shaped.items.map(({ tickets, ...r }) => ({
    ...r,
    shortageTons: shortageTonsOf(r),
    ticketKinds: tickets ? (tickets.split(" ") as TicketView["kind"][]) : [],
  }));
  return { ...shaped, items };
}

/**
 * Every matching delivery, newest first, read in keyset batches: memory stays one batch. Each
 * batch's tickets come in one query of their own unless `tickets` is false.
 */
export function deliveryBatches(
  viewer: Viewer,
  filters: DeliveryFilters,
  { batchSize = 1000, tickets = true }: { batchSize?: number; tickets?: boolean } = {},
) {
  return keysetBatches(
    async (page) => {
      const { deliveries, olderCursor } = await listDeliveries(viewer, filters, { limit: batchSize, page, tickets });
      return { items: deliveries, olderCursor };
    },
    (last) => ({ key: last.date, id: last.id }),
  );
}

const KEYSET = { key: schema.deliveries.date, id: schema.deliveries.id };

/** A delivery with its names and tickets, or null. */
export async function getDeliveryRow(id: number): Promise<Row | null> {
  const db = await getDb();
  const [row] = await baseSelect(db).where(eq(schema.deliveries.id, id));
  if (!row) return null;
  const tickets = await ticketsOfDeliveries([id], db);
  return { ...flatten(row), tickets: tickets.get(id) ?? [] };
}

/** A delivery the viewer may see (staff: their own), or null. */
export async function getDelivery(viewer: Viewer, id: number): Promise<DeliveryView | null> {
  const row = await getDeliveryRow(id);
  if (!row || (!can(viewer, "delivery.viewAll") && row.createdBy !== viewer.id)) return null;
  return toView(row, viewer.role);
}

export async function getDeliveryClient(settings?: Pick<Settings, "deliveryClientName">) {
  settings ??= await getSettings();
  const name = deliveryClientName(settings);
  const client = await findClientByName(name);
  return { name, client, missingMessage: client ? null : `${name} client not found. Please contact administrator.` };
}

export async function agentExists(id: number, db?: Executor) {
  db ??= await getDb();
  const [row] = await db.select({ id: schema.agents.id }).from(schema.agents).where(eq(schema.agents.id, id));
  return !!row;
}

export async function clientExists(id: number, db?: Executor) {
  db ??= await getDb();
  const [row] = await db.select({ id: schema.clients.id }).from(schema.clients).where(eq(schema.clients.id, id));
  return !!row;
}

/** The client a new delivery goes to: the one chosen, else the fixed delivery client; a Refusal when it is not there. */
export async function deliveryClientOf(
  tx: Executor,
  chosen: number | null,
  fixed: Awaited<ReturnType<typeof getDeliveryClient>> | null,
): Promise<number> {
  if (chosen !== null) {
    if (await clientExists(chosen, tx)) return chosen;
    throw new Refusal(failOn(400, "clientId", "Client not found"));
  }
  if (fixed?.client) return fixed.client.id;
  throw new Refusal(failOn(400, "clientId", fixed?.missingMessage ?? "Client not found"));
}

export { isInvoiced };

/** The number of the invoice a delivery is on, for the edit form's notice. */
export async function invoiceNumberOf(invoiceId: number | null): Promise<string | null> {
  if (invoiceId === null) return null;
  const db = await getDb();
  const [row] = await db
    .select({ invoiceNo: schema.invoices.invoiceNo })
    .from(schema.invoices)
    .where(eq(schema.invoices.id, invoiceId));
  return row?.invoiceNo ?? null;
}
