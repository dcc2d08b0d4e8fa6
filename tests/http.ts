// Calling route modules directly in integration tests, as Remix would.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => unknown;

export function makeRequest(
  path: string,
  {
    method = "GET",
    cookie,
    json,
    form,
    headers = {},
  }: {
    method?: string;
    cookie?: string;
    json?: unknown;
    form?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
) {
  const h = new Headers(headers);
  if (cookie) h.set("Cookie", cookie);
  let body: BodyInit | undefined;
  if (json !== undefined) {
    h.set("Content-Type", "application/json");
    body = typeof json === "string" ? json : JSON.stringify(json);
  } else if (form) {
    body = new URLSearchParams(form);
    h.set("Content-Type", "application/x-www-form-urlencoded");
  }
  return new Request(`http://localhost${path}`, { method, headers: h, body });
}

export type Result = { status: number; headers: Headers; body: unknown };

/** Runs a loader or action and normalises what it returns or throws into status, headers, body. */
export async function call(
  handler: Handler | undefined,
  request: Request,
  params: Record<string, string> = {},
  context: Record<string, unknown> = {},
): Promise<Result> {
  if (!handler) throw new Error("route has no such handler");
  let value: unknown;
  try {
    value = await handler({ request, params, context } as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    value = thrown;
  }
  return normalise(value);
}

async function normalise(value: unknown): Promise<Result> {
  if (value instanceof Response) {
    const text = await value.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // plain text body
    }
    return { status: value.status, headers: value.headers, body };
  }
  // single fetch's data(): { type: "DataWithResponseInit", data, init }
  if (value && typeof value === "object" && (value as { type?: string }).type === "DataWithResponseInit") {
    const d = value as { data: unknown; init?: ResponseInit | null };
    return { status: d.init?.status ?? 200, headers: new Headers(d.init?.headers), body: d.data };
  }
  if (value instanceof Error) throw value;
  return { status: 200, headers: new Headers(), body: value };
}
