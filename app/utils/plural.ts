// Counted nouns for labels. Its own module: the shared text helpers are in New Delivery's
// JavaScript, which has no byte to spare (tests/e2e/budget.spec.ts).

/** "1 delivery", "3 deliveries". */
export const deliveriesCount = (n: number) => `${n} ${n === 1 ? "delivery" : "deliveries"}`;
