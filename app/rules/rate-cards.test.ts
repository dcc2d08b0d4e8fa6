// Which rate card applies (docs/decisions/1230): the resolution order, every tie case, the day a
// new card starts, and the site as it is matched.
import { describe, expect, it } from "vitest";
import { applies, cardFor, compatible, scopesOf, siteKey, specificity, tieOf, type CardTerms } from "./rate-cards";

let next = 1;
const card = (validFrom: string, scope: Partial<CardTerms> = {}): CardTerms => ({
  id: next++,
  kind: "selling",
  validFrom,
  clientId: null,
  agentId: null,
  siteKey: null,
  ...scope,
});
const delivery = (date: string, scope: { clientId?: number; agentId?: number; siteKey?: string } = {}) => ({
  date,
  clientId: scope.clientId ?? null,
  agentId: scope.agentId ?? null,
  siteKey: scope.siteKey ?? null,
});

describe("siteKey", () => {
  it("matches a site case- and space-insensitively", () => {
    expect(siteKey("Ikot  Ekpene ")).toBe("ikotekpene");
    expect(siteKey(" IKOT EKPENE")).toBe(siteKey("ikot\tekpene"));
    expect(siteKey("Aba")).not.toBe(siteKey("Abak"));
  });
});

describe("which card applies", () => {
  it("a card applies from its start day, not the day before", () => {
    const c = card("2026-03-10");
    expect(applies(c, delivery("2026-03-09"))).toBe(false);
    expect(applies(c, delivery("2026-03-10"))).toBe(true);
    expect(cardFor([c], "selling", delivery("2026-03-09"))).toBeNull();
  });

  it("a card applies only where everything it names matches", () => {
    const c = card("2026-01-01", { clientId: 1, siteKey: "aba" });
    expect(applies(c, delivery("2026-02-01", { clientId: 1, siteKey: "aba", agentId: 9 }))).toBe(true);
    expect(applies(c, delivery("2026-02-01", { clientId: 1, siteKey: "uyo" }))).toBe(false);
    expect(applies(c, delivery("2026-02-01", { clientId: 2, siteKey: "aba" }))).toBe(false);
    expect(applies(c, delivery("2026-02-01", { siteKey: "aba" }))).toBe(false);
  });

  it("only cards of the kind asked for", () => {
    const buying = { ...card("2026-01-01"), kind: "buying" as const };
    expect(cardFor([buying], "selling", delivery("2026-02-01"))).toBeNull();
    expect(cardFor([buying], "buying", delivery("2026-02-01"))).toBe(buying);
  });

  it("a new card of the same scope replaces the old from its day on", () => {
    const old = card("2026-01-01", { clientId: 1 });
    const next = card("2026-03-10", { clientId: 1 });
    const d = (date: string) => delivery(date, { clientId: 1 });
    expect(cardFor([old, next], "selling", d("2026-03-09"))).toBe(old);
    expect(cardFor([next, old], "selling", d("2026-03-10"))).toBe(next);
    expect(cardFor([old, next], "selling", d("2026-12-31"))).toBe(next);
  });

  it("the card naming the most wins, whatever its date", () => {
    const everyone = card("2026-03-01");
    const client = card("2026-01-01", { clientId: 1 });
    const clientSite = card("2025-06-01", { clientId: 1, siteKey: "aba" });
    const all = card("2024-01-01", { clientId: 1, agentId: 7, siteKey: "aba" });
    const cards = [everyone, client, clientSite, all];
    expect(cardFor(cards, "selling", delivery("2026-04-01"))).toBe(everyone);
    expect(cardFor(cards, "selling", delivery("2026-04-01", { clientId: 1 }))).toBe(client);
    expect(cardFor(cards, "selling", delivery("2026-04-01", { clientId: 1, siteKey: "aba" }))).toBe(clientSite);
    expect(cardFor(cards, "selling", delivery("2026-04-01", { clientId: 1, siteKey: "aba", agentId: 7 }))).toBe(all);
    expect(cardFor(cards, "selling", delivery("2026-04-01", { clientId: 2, siteKey: "aba", agentId: 7 }))).toBe(
      everyone,
    );
  });

  it("between cards naming as many, the later start wins", () => {
    const client = card("2026-01-01", { clientId: 1 });
    const site = card("2026-02-01", { siteKey: "aba" });
    const d = (date: string) => delivery(date, { clientId: 1, siteKey: "aba" });
    expect(cardFor([client, site], "selling", d("2026-01-31"))).toBe(client);
    expect(cardFor([client, site], "selling", d("2026-02-01"))).toBe(site);
    const client2 = card("2026-03-01", { clientId: 1 });
    expect(cardFor([client, site, client2], "selling", d("2026-03-01"))).toBe(client2);
  });

  it("no card: null, and the default applies", () => {
    expect(cardFor([], "selling", delivery("2026-01-01"))).toBeNull();
  });
});

describe("ties are refused when a card is created", () => {
  const kinds = { kind: "selling" as const };
  it("the same scope from the same day ties", () => {
    const c = card("2026-03-01", { clientId: 1 });
    expect(tieOf([c], { ...kinds, validFrom: "2026-03-01", clientId: 1, agentId: null, siteKey: null })).toBe(c);
    const everyone = card("2026-03-01");
    expect(tieOf([everyone], { ...kinds, validFrom: "2026-03-01", clientId: null, agentId: null, siteKey: null })).toBe(
      everyone,
    );
  });

  it("two scopes one delivery can match, naming as many, from the same day tie", () => {
    const client = card("2026-03-01", { clientId: 1 });
    expect(tieOf([client], { ...kinds, validFrom: "2026-03-01", clientId: null, agentId: 4, siteKey: null })).toBe(
      client,
    );
    expect(tieOf([client], { ...kinds, validFrom: "2026-03-01", clientId: null, agentId: null, siteKey: "aba" })).toBe(
      client,
    );
    const clientAgent = card("2026-03-01", { clientId: 1, agentId: 4 });
    expect(
      tieOf([clientAgent], { ...kinds, validFrom: "2026-03-01", clientId: 1, agentId: null, siteKey: "aba" }),
    ).toBe(clientAgent);
    expect(
      tieOf([clientAgent], { ...kinds, validFrom: "2026-03-01", clientId: null, agentId: 4, siteKey: "aba" }),
    ).toBe(clientAgent);
  });

  it("no tie: another day, another count, scopes no delivery matches both, another kind", () => {
    const client = card("2026-03-01", { clientId: 1 });
    const base = { ...kinds, clientId: null, agentId: null, siteKey: null };
    expect(tieOf([client], { ...base, validFrom: "2026-03-02", agentId: 4 })).toBeNull();
    expect(tieOf([client], { ...base, validFrom: "2026-03-01" })).toBeNull();
    expect(tieOf([client], { ...base, validFrom: "2026-03-01", clientId: 1, siteKey: "aba" })).toBeNull();
    expect(tieOf([client], { ...base, validFrom: "2026-03-01", clientId: 2 })).toBeNull();
    expect(tieOf([client], { ...base, kind: "buying", validFrom: "2026-03-01", clientId: 1 })).toBeNull();
    const clientAgent = card("2026-03-01", { clientId: 1, agentId: 4 });
    expect(tieOf([clientAgent], { ...base, validFrom: "2026-03-01", clientId: 2, siteKey: "aba" })).toBeNull();
    expect(tieOf([clientAgent], { ...base, validFrom: "2026-03-01", clientId: 1, agentId: 5 })).toBeNull();
  });

  it("what the tie rule protects: with it refused, one card always wins", () => {
    const client = card("2026-03-01", { clientId: 1 });
    const agent = card("2026-03-01", { agentId: 4 });
    expect(compatible(client, agent)).toBe(true);
    expect(specificity(client)).toBe(specificity(agent));
    // Let in, the two would be decided by the order they were read: the reason a tie is refused.
    const d = delivery("2026-03-05", { clientId: 1, agentId: 4 });
    expect(cardFor([client, agent], "selling", d)).toBe(client);
    expect(cardFor([agent, client], "selling", d)).toBe(agent);
  });
});

describe("scopesOf", () => {
  it("every subset of what a delivery has, once", () => {
    expect(scopesOf({ clientId: 1, agentId: 2, siteKey: "aba" })).toHaveLength(8);
    expect(scopesOf({ clientId: null, agentId: 2, siteKey: null })).toEqual([
      { clientId: null, agentId: 2, siteKey: null },
      { clientId: null, agentId: null, siteKey: null },
    ]);
  });
});
