// What a manager's New Delivery says about the rates a delivery will get (docs/decisions/1230),
// written on the server as HTML: New Delivery's JavaScript budget (decision 0100) has no room
// for a component. The panel follows the agent, pick-up site and date chosen: without
// JavaScript through the form's "Show rates" (a GET of the page), with it through
// `/deliveries/new/rates`, which answers this same HTML. Every value is escaped by the `html` tag.
import type { Settings } from "~/db.server";
import { getAgent } from "~/models/agent.server";
import type { DeliveryView } from "~/models/delivery.server";
import { cardWords, getRateCard, ratesFor, readResolveQuery, type AppliedRate } from "~/models/rate-card.server";
import { can, type Actor } from "~/rules/capabilities.server";
import { RATE_CARD_KINDS, RATE_KIND_LABELS } from "~/schemas/rate-cards";
import { formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { html } from "~/utils/html";
import { formatNaira } from "~/utils/money";
import type { Result } from "~/utils/result";

/** What the panel is asked for: the day, agent and pick-up site chosen on the form (checked). */
export type RatesChoice = { date: string; agentId: number | null; site: string | null };

/**
 * The choice from New Delivery's own field names (`date`, `agentId`, `location`), checked as the
 * resolve call checks its query: a bad date or an unknown agent is a 400 under the field. An
 * empty date is today.
 */
export async function readRatesChoice(params: URLSearchParams): Promise<Result<{ choice: RatesChoice }, 400>> {
  const query = new URLSearchParams();
  for (const [from, to] of [
    ["date", "date"],
    ["agentId", "agentId"],
    ["location", "site"],
  ])
    query.set(to, params.get(from) ?? "");
  const read = await readResolveQuery(query);
  if (!read.ok) return read;
  const { date, agentId, site } = read.query;
  return { ok: true, choice: { date, agentId, site } };
}

const sourceWords = (applied: AppliedRate) =>
  applied.source === "card"
    ? html`<a href="/rates?inForce=1">card #${applied.cardId}</a>`
    : applied.source === "default"
      ? html`System Settings`
      : html`none: type the logistics cost`;

/**
 * The rates a delivery for the fixed client with the chosen day, agent and pick-up site gets,
 * each with its source; null for whoever may not see rates (staff never see money) and when
 * there is no delivery client. `problem` is said above the rates (the choice that could not be
 * read; the rates are then today's, for no agent and no site).
 */
export async function newDeliveryRatesHtml(
  actor: Actor,
  client: { id: number; name: string } | null,
  choice: RatesChoice,
  settings: Settings,
  problem: string | null = null,
): Promise<string | null> {
  if (!client || !can(actor, "rate.view")) return null;
  const [rates, agent] = await Promise.all([
    ratesFor(actor, { ...choice, clientId: client.id }, settings),
    choice.agentId === null ? null : getAgent(choice.agentId),
  ]);
  const rows = RATE_CARD_KINDS.map((kind) => {
    const applied = rates[kind];
    return html`<tr>
      <th scope="row">${RATE_KIND_LABELS[kind]}</th>
      <td class="num">${applied.rate === null ? "—" : formatNaira(applied.rate)}</td>
      <td>${sourceWords(applied)}</td>
    </tr>`;
  });
  const open = !agent || !choice.site;
  return html`<h3 class="font-semibold">Rates that will apply</h3>
    ${problem ? html`<p class="text-red-600" role="alert">${problem}</p>` : null}
    <p class="page-subtitle" data-rates-for>
      For ${client.name}, ${agent ? agent.name : "any agent"}, ${choice.site ?? "any pick-up site"}, on
      ${formatDate(choice.date)}.${open ? " A card naming the agent or pick-up site chosen may win over these." : ""}
      The delivery keeps the rates it gets when it is recorded; its page shows where each came from (<a
        href="/rates?clientId=${client.id}&amp;inForce=1"
        >cards in force</a
      >). Haulage becomes the logistics cost (rate × loaded tons) unless one is typed.
    </p>
    <table class="w-full text-sm">
      <tbody>
        ${rows}
      </tbody>
    </table>`.value;
}

/**
 * New Delivery's panel for the choice in the page's query (the form sent by "Show rates"), or
 * today's for no agent and no site with what could not be read said above it.
 */
export async function newDeliveryRatesPanel(
  actor: Actor,
  client: { id: number; name: string } | null,
  params: URLSearchParams,
  settings: Settings,
): Promise<string | null> {
  if (!client || !can(actor, "rate.view")) return null;
  const read = await readRatesChoice(params);
  if (read.ok) return newDeliveryRatesHtml(actor, client, read.choice, settings);
  const today = todayIn(env().APP_TIME_ZONE);
  return newDeliveryRatesHtml(actor, client, { date: today, agentId: null, site: null }, settings, read.message);
}

const RATE_FIELD_LABELS = {
  buyingRate: "Buying rate",
  sellingRate: "Selling rate",
  offloadingCost: "Offloading cost",
  logisticsCost: "Logistics cost",
} as const;

/**
 * Where each of a delivery's rates came from, in words, for its Edit dialog (managers and admins):
 * the card it was copied from, System Settings, typed, or changed by hand; "as recorded" for a
 * delivery older than rate cards.
 */
export async function rateSourceLines(
  sources: DeliveryView["rateSources"],
): Promise<{ label: string; words: string }[]> {
  if (!sources) return [];
  return Promise.all(
    (Object.keys(RATE_FIELD_LABELS) as (keyof typeof RATE_FIELD_LABELS)[]).map(async (field) => {
      const { source, cardId } = sources[field];
      const card = source === "card" && cardId !== null ? await getRateCard(cardId) : null;
      const words =
        source === "card"
          ? card
            ? `Rate card: ${cardWords(card)}`
            : `Rate card #${cardId}`
          : source === "default"
            ? "System Settings' default"
            : source === "typed"
              ? "Typed with the delivery"
              : source === "override"
                ? `Changed by hand (override)${cardId !== null ? `; the card had been #${cardId}` : ""}`
                : field === "logisticsCost"
                  ? "No haulage card; none typed"
                  : "As recorded (before rate cards)";
      return { label: RATE_FIELD_LABELS[field], words };
    }),
  );
}
