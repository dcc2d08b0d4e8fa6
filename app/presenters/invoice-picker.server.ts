// What Generate Invoice shows: the deliveries it offers, searched and paged, and the figures of
// the invoice a chosen delivery would make, every one from the database. Reads only.
import { and, eq, sql } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import {
  eligibleById,
  eligibleColumns,
  invoiceFigures,
  isEligible,
  nextInvoiceNumber,
  type EligibleRow,
} from "~/models/invoice.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import type { PickerFilters } from "~/schemas/invoice-filters";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { FIRST_PAGE, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";

export const PICKER_PAGE_SIZE = 10;

const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const PICKER_KEYSET = { key: schema.deliveries.date, id: schema.deliveries.id };

/**
 * The query of one page of the picker (exported for the plan test): confirmed deliveries with a
 * client and no invoice, not waiting for their client's ticket (docs/decisions/1220), searched
 * by agent, date and location, newest first through the partial index on exactly those
 * deliveries (docs/decisions/0502). The wait is a NOT EXISTS on the client's row, a filter
 * beside the index's condition.
 */
export function eligibleDeliveriesQuery(db: Executor, filters: PickerFilters, page: PageRequest, limit: number) {
  return db
    .select(eligibleColumns)
    .from(schema.deliveries)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId))
    .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
    .where(
      and(
        isEligible,
        filters.agent ? sql`${schema.agents.name} ilike ${contains(filters.agent)}` : undefined,
        filters.location ? sql`${schema.deliveries.location} ilike ${contains(filters.location)}` : undefined,
        filters.date ? eq(schema.deliveries.date, filters.date) : undefined,
        keysetWhere(PICKER_KEYSET, page),
      ),
    )
    .orderBy(...keysetOrder(PICKER_KEYSET, page))
    .limit(limit + 1);
}

/** What Generate Invoice offers: one page of `eligibleDeliveriesQuery`. */
export async function listEligibleDeliveries(
  actor: Actor,
  filters: PickerFilters = {},
  { limit = PICKER_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
  db?: Executor,
): Promise<Page<EligibleRow>> {
  assertCan(actor, "invoice.manage", "invoices/eligible-deliveries");
  db ??= await getDb();
  const rows = await eligibleDeliveriesQuery(db, filters, page, limit);
  return toPage(rows, limit, page, (r) => ({ key: r.date, id: r.id }));
}

/** What the dialog shows for a chosen delivery: every figure from the database. */
export async function previewInvoice(actor: Actor, deliveryId: number) {
  assertCan(actor, "invoice.manage", `invoice/delivery/${deliveryId}`);
  const db = await getDb();
  const row = await eligibleById(db, deliveryId);
  if (!row) return null;
  const issueDate = todayIn(env().APP_TIME_ZONE);
  return { delivery: row, issueDate, ...invoiceFigures([row], issueDate), invoiceNo: await nextInvoiceNumber(db) };
}
