// The kinds of rate card and their words (docs/decisions/1230), in a module of their own: the
// pages' bundles carry the four labels without the card's schema (zod and the field parsers),
// which would otherwise come alive in the chunks New Delivery shares (decision 0100).
export const RATE_CARD_KINDS = ["buying", "selling", "offloading", "haulage"] as const;
export type RateCardKind = (typeof RATE_CARD_KINDS)[number];

/** How each kind reads on a page. */
export const RATE_KIND_LABELS = {
  buying: "Buying rate",
  selling: "Selling rate",
  offloading: "Offloading cost",
  haulage: "Haulage per ton",
} as const satisfies Record<RateCardKind, string>;
