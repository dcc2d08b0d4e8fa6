// The client address server.js puts in the load context (server/client-address.js), remembered
// per request so code that only sees the Request (the remix-auth strategy) can read it.
const addresses = new WeakMap<Request, string>();

export function clientAddress(request: Request, context?: unknown): string {
  const fromContext = (context as { clientAddress?: unknown } | undefined)?.clientAddress;
  if (typeof fromContext === "string" && fromContext) addresses.set(request, fromContext);
  return addresses.get(request) ?? "unknown";
}
