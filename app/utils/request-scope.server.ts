import { AsyncLocalStorage } from "node:async_hooks";
import { clientAddress } from "~/utils/client-address.server";
import { logEvent } from "~/utils/logger.server";

// The method and path of the request a loader or action is serving, set once by the route
// wrapper (unavailable.server.ts guardHandler), so a refusal decided deep in a model can be
// logged with its route like the ones the route guards log, and an audit event written deep
// in a model carries the request's id and client address (app/models/audit.server.ts).
type Scope = { method: string; route: string; requestId?: string | null; clientAddress?: string | null };
export const requestScope = new AsyncLocalStorage<Scope>();

export function scopeOf(request: Request, context?: unknown): Scope {
  const ctx = context && typeof context === "object" ? (context as Record<string, unknown>) : {};
  return {
    method: request.method,
    route: new URL(request.url).pathname.replace(/\.data$/, ""),
    requestId: typeof ctx.requestId === "string" ? ctx.requestId : null,
    clientAddress: context ? clientAddress(request, context) : null,
  };
}

/** A model's 403: logged as access.denied with the user, route and object, then returned. */
export function denied(user: { id: string; role: string }, object: string | null, message: string) {
  const scope = requestScope.getStore();
  logEvent("warn", {
    event: "access.denied",
    userId: user.id,
    role: user.role,
    method: scope?.method ?? null,
    route: scope?.route ?? null,
    object,
    reason: message,
  });
  return { ok: false as const, status: 403 as const, message };
}
