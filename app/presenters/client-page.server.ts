// The client's page (/clients/:id, docs/decisions/1210): its details and its quality rules, newest
// first, the one in effect today marked and worked through an example.
import type { Actor } from "~/rules/capabilities.server";
import { assertCan } from "~/rules/capabilities.server";
import { ruleOn, workedExample } from "~/rules/quality";
import { clientDetails, getClient } from "~/models/client.server";
import {
  listQualityRules,
  qualityRuleOn,
  QUALITY_RULES_SHOWN,
  type QualityRuleView,
} from "~/models/quality-rule.server";
import { cardsNaming } from "~/models/rate-card.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";

export type ClientPage = NonNullable<Awaited<ReturnType<typeof clientPage>>>;

/** Null when there is no such client. Managers and admins (`client.manage`). */
export async function clientPage(actor: Actor, id: number, now = new Date()) {
  assertCan(actor, "client.manage", `client/${id}`);
  const client = await getClient(id);
  if (!client) return null;
  const today = todayIn(env().APP_TIME_ZONE, now);
  const [{ items, more }, cards] = await Promise.all([
    listQualityRules(actor, id),
    // The client's rate cards (docs/decisions/1230), newest start first.
    cardsNaming(actor, { clientId: id }, { now }),
  ]);
  // Beyond the newest rules shown (a long run of rules set ahead), the index still finds today's.
  const inEffect: QualityRuleView | null = ruleOn(items, today) ?? (more ? await qualityRuleOn(id, today) : null);
  return {
    client: clientDetails(client),
    today,
    rules: items.map((rule) => ({ ...rule, inEffect: rule.id === inEffect?.id, upcoming: rule.validFrom > today })),
    /** More rules than shown: the page says it shows the newest QUALITY_RULES_SHOWN. */
    more,
    shown: QUALITY_RULES_SHOWN,
    inEffect: inEffect ? { ...inEffect, example: workedExample(inEffect) } : null,
    rateCards: cards.items,
    moreRateCards: cards.more,
  };
}
