import { closeSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import {
  E2E_PASSWORD,
  e2eSessionFile,
  fixtureUsers,
  type FixtureRole,
  type FixtureUser,
  type SessionPool,
} from "./users";

type Fixtures = {
  /**
   * Signs this page's context in as the project's user. `fresh`: through the real sign-in call,
   * for pages that want a sign-in of the last 5 minutes (two-factor and passkey set-up, decision
   * 0600); a session made when the server started may be older.
   */
  loginAs: (role: FixtureRole, options?: { fresh?: boolean }) => Promise<void>;
  javaScript: boolean;
  /** This browser project's fixture users (each project has its own, see users.ts). */
  users: Record<FixtureRole, FixtureUser>;
  /**
   * Console errors a test causes on purpose (a connection it cuts), set with `test.use`: one
   * pattern (an array would be read as Playwright's [value, options] pair).
   */
  expectedConsole: RegExp | null;
};

/**
 * The address each browser context signs in from. The e2e server believes X-Forwarded-For
 * (TRUSTED_PROXY_HEADER, tests/e2e/start-server.ts) as it would behind the office's proxy, and
 * every context gets an address of its own (198.18.0.0/15, the range kept for tests): journeys
 * are people at different desks, so one journey's deliberate wrong passwords never count against
 * another's sign-in in the sign-in throttle's per-address limit (decision 0600).
 */
export function desk(): { "X-Forwarded-For": string } {
  const octet = () => Math.floor(Math.random() * 256);
  return { "X-Forwarded-For": `198.${18 + (octet() % 2)}.${octet()}.${octet()}` };
}

let pool: SessionPool | undefined;
function sessionPool(baseURL: string): SessionPool {
  return (pool ??= JSON.parse(readFileSync(e2eSessionFile(new URL(baseURL).port), "utf8")) as SessionPool);
}

/** A session made before the server started, not yet handed to any test (in any worker), or null when all are. */
function claimSession(baseURL: string, project: string, role: FixtureRole): string | null {
  const { claims, sessions } = sessionPool(baseURL);
  const values = sessions[project]?.[role] ?? [];
  for (let i = 0; i < values.length; i++) {
    try {
      // Creating the claim file fails when it exists: one winner per session across workers.
      closeSync(openSync(path.join(claims, `${project}-${role}-${i}`), "wx"));
      return values[i];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return null;
}

/** The business day the server's seed counts back from (`SessionPool.seededOn`). */
export const seededOn = (baseURL: string) => sessionPool(baseURL).seededOn;

/**
 * Signs a browser context in as a fixture user of a project: with a session made in advance
 * when one is left (no bcrypt, no request), else through the real JSON sign-in call. The form
 * itself is exercised by the tests that use signInWithForm.
 */
export async function signInContext(
  context: BrowserContext,
  baseURL: string,
  project: string,
  role: FixtureRole,
  { fresh = false } = {},
) {
  const value = fresh ? null : claimSession(baseURL, project, role);
  if (value) {
    const { cookieName } = sessionPool(baseURL);
    await context.addCookies([{ name: cookieName, value, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
    return;
  }
  const response = await context.request.post("/api/auth/password/login", {
    data: { email: fixtureUsers(project)[role].email, password: E2E_PASSWORD },
    headers: { Origin: baseURL },
  });
  expect(response.status()).toBe(200);
}

/**
 * Every test fails on an unexpected console error or a page error, and can sign in by role as
 * its own project's user.
 */
export const test = base.extend<Fixtures>({
  javaScript: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  // eslint-disable-next-line no-empty-pattern
  users: async ({}, use, testInfo) => use(fixtureUsers(testInfo.project.name)),
  expectedConsole: [null, { option: true }],
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => use({ ...extraHTTPHeaders, ...desk() }),
  page: async ({ page, expectedConsole }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (
        message.type() === "error" &&
        !/Failed to load resource: the server responded with a status of (40[0-9]|429)/.test(message.text()) &&
        !expectedConsole?.test(message.text())
      ) {
        errors.push(message.text());
      }
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(page);
    expect(errors, "console errors").toEqual([]);
  },
  loginAs: async ({ page, baseURL }, use, testInfo) => {
    await use((role, options) => signInContext(page.context(), baseURL!, testInfo.project.name, role, options));
  },
});

export { expect };

/** With JavaScript, waits until React has hydrated the page; without it, returns at once. */
export async function hydrated(page: Page, javaScript: boolean) {
  if (javaScript) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto("/login?dialog=email");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Presses Save Rates on System Settings after `fill`. Journeys on the same server save the rates
 * at the same time; when one did after this page was read, the form says so and starts again
 * from what is saved (decision 0200): `fill` is done again on it and saved once more,
 * as a person would. Returns how many times the form said so.
 */
export async function saveRates(page: Page, fill: () => Promise<void>) {
  const rates = page.getByRole("region", { name: "Default Rates Configuration" });
  for (let conflicts = 0; ; conflicts++) {
    await fill();
    await rates.getByRole("button", { name: "Save Rates" }).click();
    const conflict = rates.getByRole("alert").filter({ hasText: "Someone else saved these settings" });
    const saved = page.getByRole("status").filter({ hasText: "Settings updated successfully" });
    await expect(conflict.or(saved)).toBeVisible();
    if ((await saved.isVisible()) || conflicts >= 3) return conflicts;
  }
}

/** A short tag that keeps the names a test creates apart from every other run's. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A row the API answered: its id and whatever else it carries. */
type ApiRow = Record<string, unknown> & { id: number };

/** Posts JSON to the app's API as the signed-in user and answers the created row (any 2xx). */
export function apiPoster(request: APIRequestContext, origin: string) {
  return async (url: string, data: object) => {
    const res = await request.post(url, { data, headers: { Origin: origin } });
    expect(res.status(), `${url}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as ApiRow;
  };
}

/**
 * Through the API, as the signed-in user: a delivery by an agent for a client (new ones named
 * "`label` Agent `tag`" and "`label` Client `tag`" unless given), priced with rates of its own
 * (the settings' rates are whatever other journeys left), and the invoice made for it.
 */
export async function invoiceThroughApi(
  request: APIRequestContext,
  origin: string,
  {
    label,
    tag = unique(),
    agent,
    client,
    clientFields = {},
    delivery = {},
    rates,
  }: {
    label: string;
    tag?: string;
    agent?: ApiRow;
    client?: ApiRow;
    /** Fields of the new client, beside (or instead of) its name. */
    clientFields?: object;
    /** Fields of the delivery, beside (or instead of) 10.00 tons at "`label` yard `tag`". */
    delivery?: object;
    rates: { sellingRate: string; buyingRate?: string };
  },
) {
  const post = apiPoster(request, origin);
  agent ??= await post("/api/agents", { name: `${label} Agent ${tag}` });
  client ??= await post("/api/clients", { name: `${label} Client ${tag}`, ...clientFields });
  const made = await post("/api/deliveries", {
    agentId: agent.id,
    clientId: client.id,
    tons: "10.00",
    location: `${label} yard ${tag}`,
    ...delivery,
  });
  const priced = await request.patch(`/api/deliveries/${made.id}`, { data: rates, headers: { Origin: origin } });
  expect(priced.status(), await priced.text()).toBe(200);
  const invoice = (await post("/api/invoices", { deliveryId: made.id })) as ApiRow & {
    invoiceNo: string;
    amount: string;
  };
  return { agent, client, delivery: made, invoice };
}
