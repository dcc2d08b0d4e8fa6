// Who may do what: the capabilities of spec section 6, named once (decision 0801). Routes guard
// their first line with `requireCapability(request, ...)`; the models check the same name at
// their entry points with `refuse(actor, ...)`, so a new caller of recordPayment (a job, a
// script, another route) cannot skip the check. A refusal is a 403 Failure, logged as
// access.denied with the route and the object, like the route guards' refusals.
import type { Role, User } from "~/db.server";
import { jsonError, requireRole } from "~/utils/auth.server";
import { env } from "~/utils/env.server";
import { denied, requestScope } from "~/utils/request-scope.server";
import type { Failure } from "~/utils/result";

const EVERYONE = ["staff", "manager", "admin"] as const satisfies readonly Role[];
const MANAGERS = ["manager", "admin"] as const satisfies readonly Role[];
const ADMINS = ["admin"] as const satisfies readonly Role[];

/** Spec section 6, row by row. */
const CAPABILITIES = {
  /** Create deliveries. */
  "delivery.create": EVERYONE,
  /** See every delivery; staff see only the ones they created (staff dashboard, own deliveries). */
  "delivery.viewAll": MANAGERS,
  /** See profit, rates and costs; edit agent, client, rates and costs. */
  "delivery.financials": MANAGERS,
  /** See net payment to agent. */
  "delivery.netPayment": ADMINS,
  /** Edit date, tons and location; delete a delivery. */
  "delivery.admin": ADMINS,
  /** Record a delivery's weighbridge tickets after it was recorded: the client's ticket above all (docs/decisions/1220). */
  "delivery.tickets": MANAGERS,
  /** Agents screens and calls. */
  "agent.manage": MANAGERS,
  /** Agent settlements: payouts, an agent's statement, the amounts owed to agents (docs/decisions/0980). */
  "agent.settle": ADMINS,
  /** The truck register: /trucks, its add and edit dialogs, /api/trucks (docs/decisions/1200). */
  "truck.manage": MANAGERS,
  /** Clients screens and calls. */
  "client.manage": MANAGERS,
  /** A client's statement of account, its PDF and CSV (docs/decisions/0970). */
  "client.statement": MANAGERS,
  /** Invoices: list, preview, generate. */
  "invoice.manage": MANAGERS,
  /** One invoice's page and GET /api/invoices/{id}: its deliveries, payments, credit notes, history. */
  "invoice.view": MANAGERS,
  /** Void an invoice with no payments or credit notes (docs/decisions/0920). */
  "invoice.void": MANAGERS,
  /** Issue credit notes against an invoice; list them. */
  "credit_note.create": MANAGERS,
  /** Reverse a credit note issued in error (docs/decisions/0920). */
  "credit_note.reverse": ADMINS,
  /** Payments: list, record. */
  "payment.record": MANAGERS,
  /** Reverse a payment recorded in error (docs/decisions/0920). */
  "payment.reverse": ADMINS,
  /** Pay a client back out of the credit an invoice carries (docs/decisions/0920). */
  "payment.refund": ADMINS,
  /** The bank statement: import a CSV, confirm its lines' matches as receipts (docs/decisions/1241). */
  "bank.import": MANAGERS,
  /** Reconciliation. */
  "reconciliation.view": MANAGERS,
  /** The monthly tax report, its CSV and GET /api/tax-months (docs/decisions/0990). */
  "tax.view": MANAGERS,
  /** Read the rate cards, the rates a delivery will get, and where a delivery's rates came from (docs/decisions/1230). */
  "rate.view": MANAGERS,
  /** Add and delete rate cards (docs/decisions/1230). */
  "rate.manage": ADMINS,
  /** The profit and tonnage report: its page, charts, CSV, PDF and GET /api/reports/profit (docs/decisions/1270). */
  "report.profit": MANAGERS,
  /** System settings: rates, tax, offloading cost, delivery client. */
  "settings.manage": ADMINS,
  /** User management: create, freeze, unfreeze, unlock, reset password, delete, bulk. */
  "user.manage": ADMINS,
  /** Change another user's role, admin included, after re-authentication (docs/decisions/0400). */
  "user.role": ADMINS,
  /** The whole audit trail (/audit, GET /api/audit); one delivery's or invoice's own history follows that page's capability. */
  "audit.view": ADMINS,
  /** Close and reopen months (docs/decisions/0901). */
  "period.close": ADMINS,
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES | "role.switch";

export type Actor = Pick<User, "id" | "role"> & { email?: string };

const ownerEmail = () => env().OWNER_EMAIL?.trim().toLowerCase() || null;

/** The roles holding a capability ("role.switch" also goes to the owner e-mail, whatever its role). */
const rolesWith = (capability: Exclude<Capability, "role.switch">): readonly Role[] => CAPABILITIES[capability];

export function can(user: Pick<User, "role"> & { email?: string }, capability: Capability): boolean {
  if (capability === "role.switch") {
    // The role switcher: admins, and the owner e-mail whatever their current role (spec section 6).
    const owner = ownerEmail();
    return user.role === "admin" || (!!owner && user.email === owner);
  }
  return (CAPABILITIES[capability] as readonly Role[]).includes(user.role);
}

/**
 * A model's check: null when the actor holds the capability, else the 403 Failure to return
 * (logged as access.denied with `object`, e.g. "payment/invoice/42").
 */
export function refuse(
  actor: Actor,
  capability: Capability,
  object: string | null,
  message = "You do not have permission to do this",
): Failure<403> | null {
  return can(actor, capability) ? null : denied(actor, object, message);
}

/**
 * A model read's check (lists, totals, presenters): returns when the actor holds the capability,
 * else logs access.denied with `object` and throws the 403 Response a route guard would throw
 * (JSON under /api/, the 403 page elsewhere), so a read needs no result type of its own.
 */
export function assertCan(actor: Actor, capability: Capability, object: string | null): void {
  if (can(actor, capability)) return;
  const { message } = denied(actor, object, "You do not have permission to do this");
  const route = requestScope.getStore()?.route ?? "";
  throw route === "/api" || route.startsWith("/api/")
    ? jsonError(403, message)
    : new Response("You do not have permission to view this page.", { status: 403, statusText: "Forbidden" });
}

/** A route's first line: the signed-in user holding `capability`, else 401 / 403 (pages: sign-in redirect / 403 page). */
export function requireCapability(request: Request, capability: Exclude<Capability, "role.switch">): Promise<User> {
  return requireRole(request, rolesWith(capability));
}

/** Every capability name, for tests that walk the table. */
export const ALL_CAPABILITIES = [
  ...(Object.keys(CAPABILITIES) as (keyof typeof CAPABILITIES)[]),
  "role.switch",
] as const satisfies readonly Capability[];
