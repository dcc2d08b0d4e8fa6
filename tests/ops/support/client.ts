// A tiny HTTP client for the ops tests: JSON calls with a session cookie.
export type Reply = { status: number; headers: Headers; body: unknown; text: string };

export async function request(
  base: string,
  path: string,
  {
    method = "GET",
    cookie,
    json,
    headers = {},
    form,
  }: {
    method?: string;
    cookie?: string;
    json?: unknown;
    headers?: Record<string, string>;
    form?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const h: Record<string, string> = { ...headers };
  if (cookie) h.Cookie = cookie;
  let body: string | undefined;
  if (json !== undefined) {
    h["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form) {
    h["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form).toString();
  }
  const response = await fetch(`${base}${path}`, { method, headers: h, body, redirect: "manual" });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // HTML or plain text
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Signs in through the JSON API; returns the session cookie. */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const reply = await request(base, "/api/auth/password/login", { method: "POST", json: { email, password } });
    if (reply.status === 200) {
      const cookie = reply.headers.get("set-cookie");
      if (!cookie) throw new Error("sign-in set no cookie");
      return cookie.split(";")[0];
    }
    if (reply.status !== 503) throw new Error(`sign-in answered ${reply.status}: ${reply.text}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("sign-in kept answering 503");
}
