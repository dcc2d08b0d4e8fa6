// What an agent is paid on (docs/decisions/1220), as the Add/Edit Agent select and the agent
// statement word it. Kept apart from the schemas, so the form's bundle carries only these words.
import type { PayBasis } from "~/db.server";

export const PAY_BASIS_OPTIONS = [
  { value: "loaded", label: "Loaded tons" },
  { value: "received", label: "Received tons (client's weighbridge)" },
  { value: "accepted", label: "Accepted tons (after quality deduction)" },
] as const satisfies readonly { value: PayBasis; label: string }[];

/** "Received tons (client's weighbridge)": a basis as the form and the agent statement word it. */
export const payBasisLabel = (basis: PayBasis) => PAY_BASIS_OPTIONS.find((o) => o.value === basis)!.label;
