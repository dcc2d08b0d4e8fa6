// Which rate card applies to a delivery (docs/decisions/1230), written once for the page, the API
// and the tests; models/rate-card.server.ts asks the database the same question one index probe
// per scope, and a test holds the two equal. Dates are "yyyy-MM-dd" and compare as text.
import type { RateKind } from "~/db.server";

/** A card's scope: what it names (null: any). `siteKey` is the pick-up site as `siteKey` reads it. */
export type Scope = { clientId: number | null; agentId: number | null; siteKey: string | null };
export type CardTerms = Scope & { id: number; kind: RateKind; validFrom: string };
/** What a delivery offers a card to match: its day, client, agent and pick-up site's key. */
export type DeliveryScope = { date: string; clientId: number | null; agentId: number | null; siteKey: string | null };

/** A pick-up site as cards match it: case- and space-insensitive ("Ikot  Ekpene " → "ikotekpene"). */
export function siteKey(site: string): string {
  return site.normalize("NFC").replace(/\s+/g, "").toLowerCase();
}

/** How many of client, agent and site a card names: the more, the more specific. */
export const specificity = (scope: Scope) =>
  (scope.clientId === null ? 0 : 1) + (scope.agentId === null ? 0 : 1) + (scope.siteKey === null ? 0 : 1);

/** Whether a card applies to a delivery: everything it names matches, and it started on or before the day. */
export function applies(card: CardTerms, delivery: DeliveryScope): boolean {
  return (
    card.validFrom <= delivery.date &&
    (card.clientId === null || card.clientId === delivery.clientId) &&
    (card.agentId === null || card.agentId === delivery.agentId) &&
    (card.siteKey === null || card.siteKey === delivery.siteKey)
  );
}

/** Orders two applicable cards: the one naming more wins, then the later start. */
const beats = (a: CardTerms, b: CardTerms) => {
  const more = specificity(a) - specificity(b);
  return more !== 0 ? more > 0 : a.validFrom > b.validFrom;
};

/**
 * The card of `kind` that applies to `delivery`, or null (then System Settings' default does):
 * among the cards that apply, the one naming the most of client, agent and site, then the latest
 * start. Two could tie only if a tie had been let in; `tieOf` refuses it when a card is created.
 */
export function cardFor<C extends CardTerms>(cards: readonly C[], kind: RateKind, delivery: DeliveryScope): C | null {
  let found: C | null = null;
  for (const card of cards) {
    if (card.kind === kind && applies(card, delivery) && (!found || beats(card, found))) found = card;
  }
  return found;
}

/** Two scopes that one delivery can match both: for each of client, agent and site, one is open or both are equal. */
export const compatible = (a: Scope, b: Scope) =>
  (a.clientId === null || b.clientId === null || a.clientId === b.clientId) &&
  (a.agentId === null || b.agentId === null || a.agentId === b.agentId) &&
  (a.siteKey === null || b.siteKey === null || a.siteKey === b.siteKey);

/**
 * The existing card a new one would tie with for some delivery, or null. Two cards of a kind tie
 * when one delivery can match both (`compatible`), they name as many of client, agent and site,
 * and they start the same day: then neither the count nor the date picks one. The same scope
 * from the same day ties too (one would hide the other). A start on another day never ties: the
 * later card takes over from its day.
 */
export function tieOf<C extends CardTerms>(existing: readonly C[], card: Omit<CardTerms, "id">): C | null {
  return (
    existing.find(
      (other) =>
        other.kind === card.kind &&
        other.validFrom === card.validFrom &&
        specificity(other) === specificity(card) &&
        compatible(other, card),
    ) ?? null
  );
}

/** The eight scopes a delivery's cards can have: every subset of its client, agent and site (those it has). */
export function scopesOf(delivery: Omit<DeliveryScope, "date">): Scope[] {
  const out: Scope[] = [];
  for (const clientId of delivery.clientId === null ? [null] : [delivery.clientId, null])
    for (const agentId of delivery.agentId === null ? [null] : [delivery.agentId, null])
      for (const key of delivery.siteKey === null ? [null] : [delivery.siteKey, null])
        out.push({ clientId, agentId, siteKey: key });
  return out;
}
