import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { deliveryRevenue } from "~/utils/delivery-math";
import { highestInvoiceNumber } from "./invoice.server";

// Prospective numbers start after the highest existing invoice number, or after 126 when there
// are none (spec section 4), and go to the oldest uninvoiced month first.
export const PROSPECTIVE_BASE = 126;

export type MonthSummary = {
  month: string;
  count: number;
  confirmedCount: number;
  invoicedCount: number;
  totalTons: string;
  revenue: string;
  invoiceNumbers: string[];
  invoiced: boolean;
  prospectiveNumber: number | null;
  canGenerate: boolean;
};

/** Deliveries grouped by year-month, newest first, aggregated in SQL. */
export async function listMonths(): Promise<MonthSummary[]> {
  const db = await getDb();
  const month = sql<string>`to_char(${schema.deliveries.date}, 'YYYY-MM')`;
  const counted = sql`${schema.deliveries.status} in ('confirmed', 'invoiced')`;
  const rows = await db
    .select({
      month,
      count: sql<number>`count(*)::int`,
      confirmedCount: sql<number>`count(*) filter (where ${schema.deliveries.status} = 'confirmed')::int`,
      invoicedCount: sql<number>`count(*) filter (where ${schema.deliveries.status} = 'invoiced')::int`,
      eligibleCount: sql<number>`count(*) filter (where ${schema.deliveries.status} = 'confirmed' and ${schema.deliveries.clientId} is not null and ${schema.deliveries.invoiceId} is null)::int`,
      totalTons: sql<string>`coalesce(sum(${schema.deliveries.tons}) filter (where ${counted}), 0)::numeric(14,2)::text`,
      revenue: sql<string>`coalesce(sum(round(${schema.deliveries.tons} * ${schema.deliveries.sellingRate}, 4)) filter (where ${counted}), 0)::numeric(16,2)::text`,
      invoiceNumbers: sql<string[] | null>`array_agg(distinct ${schema.invoices.invoiceNo}) filter (where ${schema.invoices.invoiceNo} is not null)`,
    })
    .from(schema.deliveries)
    .leftJoin(schema.invoices, eq(schema.invoices.id, schema.deliveries.invoiceId))
    .groupBy(month)
    .orderBy(sql`1 desc`);
  const highest = await highestInvoiceNumber(db);
  let next = (highest ?? PROSPECTIVE_BASE) + 1;
  const prospective = new Map<string, number>();
  for (const row of [...rows].reverse()) {
    const invoiced = row.count > 0 && row.invoicedCount === row.count;
    if (!invoiced && row.eligibleCount > 0) prospective.set(row.month, next++);
  }
  return rows.map((row) => {
    const invoiced = row.count > 0 && row.invoicedCount === row.count;
    return {
      month: row.month,
      count: row.count,
      confirmedCount: row.confirmedCount,
      invoicedCount: row.invoicedCount,
      totalTons: row.totalTons,
      revenue: row.revenue,
      invoiceNumbers: (row.invoiceNumbers ?? []).sort((a, b) => Number(a) - Number(b)),
      invoiced,
      prospectiveNumber: prospective.get(row.month) ?? null,
      canGenerate: !invoiced && row.eligibleCount > 0,
    };
  });
}

/** One month's deliveries for the details table. */
export async function monthDetails(yearMonth: string) {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(yearMonth)) return [];
  const db = await getDb();
  const rows = await db
    .select({
      id: schema.deliveries.id,
      date: schema.deliveries.date,
      agentName: schema.agents.name,
      tons: schema.deliveries.tons,
      location: schema.deliveries.location,
      status: schema.deliveries.status,
      sellingRate: schema.deliveries.sellingRate,
    })
    .from(schema.deliveries)
    .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
    .where(and(sql`to_char(${schema.deliveries.date}, 'YYYY-MM') = ${yearMonth}`))
    .orderBy(asc(schema.deliveries.date), asc(schema.deliveries.id));
  return rows.map((r) => ({ ...r, revenue: deliveryRevenue(r) }));
}
