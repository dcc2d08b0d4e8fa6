import { and, eq, gte, lte, sql } from "drizzle-orm";
import { getDb, schema, type User } from "~/db.server";
import { addDays, startOfWeek, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { listDeliveries } from "~/models/delivery.server";
import { countedSql } from "~/rules/deliveries.server";

const RECENT_DELIVERIES = 10;

/**
 * The staff member's own numbers: deliveries today, this week (from Sunday) and tons this
 * week, all in the business time zone, counted in SQL; and their latest deliveries.
 */
export async function loadStaffDashboard(user: User, now = new Date()) {
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const weekStart = startOfWeek(today);
  const weekEnd = addDays(weekStart, 6);
  const counted = countedSql();
  const [stats] = await db
    .select({
      today: sql<number>`count(*) filter (where ${schema.deliveries.date} = ${today})::int`,
      week: sql<number>`count(*)::int`,
      // round(), not a cast to numeric(12,3): a week of more than 9 digits of tons overflowed it. Loaded tons,
      // to the kilogram (docs/decisions/1220).
      weekTons: sql<string>`round(coalesce(sum(${schema.deliveries.tons}), 0), 3)::text`,
    })
    .from(schema.deliveries)
    .where(
      and(
        eq(schema.deliveries.createdBy, user.id),
        gte(schema.deliveries.date, weekStart),
        lte(schema.deliveries.date, weekEnd),
        counted,
      ),
    );
  const { deliveries } = await listDeliveries(
    user,
    { from: undefined, to: undefined, agentId: undefined },
    { limit: RECENT_DELIVERIES },
  );
  return { today: stats.today, week: stats.week, weekTons: stats.weekTons, recent: deliveries };
}

export type StaffDashboardData = Awaited<ReturnType<typeof loadStaffDashboard>>;
