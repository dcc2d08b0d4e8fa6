// A client's quality rules (docs/decisions/1210): added, never changed (the table is append-only),
// each holding from its date until the client's next one. The received ticket will snapshot the
// rule that applied (`qualityRuleOn`) on its delivery.
import { and, desc, eq, lte } from "drizzle-orm";
import { getDb, schema, type ClientQualityRule, type Executor } from "~/db.server";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import { QUALITY_RULE_DAYS_AHEAD, QualityRuleSchema } from "~/schemas/quality-rules";
import { safeParseFields } from "~/schemas/fields";
import { addDays, formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { fieldErrorsOf } from "~/utils/field-errors";
import { fail, failOn, type Failure, type Result } from "~/utils/result";
import { recordAudit } from "./audit.server";
import { isUniqueViolation } from "./directory-errors";
import { checkPeriodOpen } from "./period.server";

/** A rule as pages and the API show it: decimals as the strings the `numeric` columns hold. */
export type QualityRuleView = {
  id: number;
  validFrom: string;
  moistureThreshold: string;
  deductionPerPoint: string;
  createdAt: string;
};

/** A client has few rules; a page shows at most this many, newest first. */
export const QUALITY_RULES_SHOWN = 50;

const view = (row: ClientQualityRule): QualityRuleView => ({
  id: row.id,
  validFrom: row.validFrom,
  moistureThreshold: row.moistureThreshold,
  deductionPerPoint: row.deductionPerPoint,
  createdAt: row.createdAt.toISOString(),
});

const rules = schema.clientQualityRules;

/**
 * The client's rules, newest valid-from first, at most `limit`; `more` when it has others
 * (read through the (client_id, valid_from desc) index). Managers and admins (`client.manage`).
 */
export async function listQualityRules(
  actor: Actor,
  clientId: number,
  { limit = QUALITY_RULES_SHOWN }: { limit?: number } = {},
  db?: Executor,
): Promise<{ items: QualityRuleView[]; more: boolean }> {
  assertCan(actor, "client.manage", `client/${clientId}/quality-rules`);
  db ??= await getDb();
  const rows = await db
    .select()
    .from(rules)
    .where(eq(rules.clientId, clientId))
    .orderBy(desc(rules.validFrom))
    .limit(limit + 1);
  return { items: rows.slice(0, limit).map(view), more: rows.length > limit };
}

/** The query behind `qualityRuleOn`, for the tests' EXPLAIN: one row through the index, no sort. */
export const qualityRuleOnQuery = (db: Executor, clientId: number, date: string) =>
  db
    .select()
    .from(rules)
    .where(and(eq(rules.clientId, clientId), lte(rules.validFrom, date)))
    .orderBy(desc(rules.validFrom))
    .limit(1);

/**
 * The rule of client `clientId` on `date` ("yyyy-MM-dd"), or null: one row through the
 * (client_id, valid_from desc) index. The database twin of `ruleOn` (rules/quality.ts). Not
 * checked: whoever records a received ticket reads the rule it snapshots.
 */
export async function qualityRuleOn(clientId: number, date: string, db?: Executor): Promise<QualityRuleView | null> {
  const [row] = await qualityRuleOnQuery(db ?? (await getDb()), clientId, date);
  return row ? view(row) : null;
}

const duplicateDate = (date: string) =>
  failOn(409, "validFrom", `A rule from ${formatDate(date)} already exists; add one from another date`);

/**
 * Adds a rule to client `clientId` from `validFrom`. Refused: without `client.manage` (403), bad
 * fields (400, under each field), a day more than a year ahead (400), an unknown client (404), a
 * day in a closed month (409, decision 0901), a day the client already has a rule from (409).
 * One transaction: the rule and its audit event.
 */
export async function addQualityRule(
  actor: Actor,
  clientId: number,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<Result<{ rule: QualityRuleView }>> {
  const refused = refuse(actor, "client.manage", `client/${clientId}/quality-rules`);
  if (refused) return refused;
  const parsed = safeParseFields(QualityRuleSchema, input);
  if (!parsed.success) {
    const { message, fieldErrors } = fieldErrorsOf(parsed.error);
    return fail(400, message, fieldErrors);
  }
  const { validFrom, moistureThreshold, deductionPerPoint } = parsed.data;
  const latest = addDays(todayIn(env().APP_TIME_ZONE, now), QUALITY_RULE_DAYS_AHEAD);
  if (validFrom > latest) {
    return failOn(400, "validFrom", `Valid from must be no later than ${formatDate(latest)} (a year ahead)`);
  }
  const db = await getDb();
  try {
    const outcome = await db.transaction(async (tx): Promise<Failure | QualityRuleView> => {
      // Shared lock: the client cannot be deleted meanwhile; rules of one client do not wait on each other.
      const [client] = await tx
        .select({ id: schema.clients.id })
        .from(schema.clients)
        .where(eq(schema.clients.id, clientId))
        .for("share");
      if (!client) return fail(404, "Client not found");
      const closed = await checkPeriodOpen(tx, validFrom);
      if (closed) return failOn(409, "validFrom", closed.message);
      const [same] = await tx
        .select({ id: rules.id })
        .from(rules)
        .where(and(eq(rules.clientId, clientId), eq(rules.validFrom, validFrom)));
      if (same) return duplicateDate(validFrom);
      const [created] = await tx
        .insert(rules)
        .values({ clientId, validFrom, moistureThreshold, deductionPerPoint, createdBy: actor.id })
        .returning();
      await recordAudit(tx, {
        actor,
        action: "client_quality_rule.create",
        entityType: "client_quality_rule",
        entityId: created.id,
        after: created,
      });
      return view(created);
    });
    return "ok" in outcome ? outcome : { ok: true, rule: outcome };
  } catch (error) {
    // Two people adding a rule from the same day at once: the unique index decides.
    if (isUniqueViolation(error)) return duplicateDate(validFrom);
    throw error;
  }
}
