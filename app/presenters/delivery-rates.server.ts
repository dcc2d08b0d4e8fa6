// What a manager's New Delivery says about the rates a delivery will get (docs/decisions/1230),
// written on the server as HTML: New Delivery's JavaScript budget (decision 0100) has no room
// for a component, and the panel has nothing to do in the browser. Every value is escaped by the
// `html` tag.
import type { Settings } from "~/db.server";
import type { DeliveryView } from "~/models/delivery.server";
import { cardWords, getRateCard, ratesFor, type AppliedRate } from "~/models/rate-card.server";
import { can, type Actor } from "~/rules/capabilities.server";
import { RATE_CARD_KINDS, RATE_KIND_LABELS } from "~/schemas/rate-cards";
import { formatDate } from "~/utils/dates";
import { html } from "~/utils/html";
import { formatNaira } from "~/utils/money";

const sourceWords = (applied: AppliedRate) =>
  applied.source === "card"
    ? html`<a href="/rates?inForce=1">card #${applied.cardId}</a>`
    : applied.source === "default"
      ? html`System Settings`
      : html`none: type the logistics cost`;

/**
 * The rates a delivery of `today` for the fixed client gets before any card naming its agent or
 * pick-up site, each with its source; null for whoever may not see rates (staff never see money).
 */
export async function newDeliveryRatesHtml(
  actor: Actor,
  client: { id: number; name: string } | null,
  today: string,
  settings: Settings,
): Promise<string | null> {
  if (!client || !can(actor, "rate.view")) return null;
  const rates = await ratesFor(actor, { date: today, clientId: client.id, agentId: null, site: null }, settings);
  const rows = RATE_CARD_KINDS.map((kind) => {
    const applied = rates[kind];
    return html`<tr>
      <th scope="row">${RATE_KIND_LABELS[kind]}</th>
      <td class="num">${applied.rate === null ? "—" : formatNaira(applied.rate)}</td>
      <td>${sourceWords(applied)}</td>
    </tr>`;
  });
  return html`<h3 class="font-semibold">Rates that will apply</h3>
    <p class="page-subtitle">
      For ${client.name} on ${formatDate(today)}. A card naming the delivery's agent or pick-up site wins over these (<a
        href="/rates?clientId=${client.id}&amp;inForce=1"
        >cards in force</a
      >); the delivery keeps the rates it gets, and its page shows where each came from. Haulage becomes the logistics
      cost (rate × loaded tons) unless one is typed.
    </p>
    <table class="w-full text-sm">
      <tbody>
        ${rows}
      </tbody>
    </table>`.value;
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
