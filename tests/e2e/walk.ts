// Walks every page and dialog route of the app for the accessibility and phone-width checks.
// axe-core is injected into each page (the app's CSP would refuse a script tag, so it goes in
// through the browser's debugging channel). Without JavaScript, Playwright cannot evaluate in
// the page at all, so the "no JavaScript" walk loads the same server HTML with every page
// script refused by a `script-src 'none'` policy: what a reader without JavaScript gets.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { request as playwrightRequest, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { generate } from "otplib";
import { desk, unique } from "./fixtures";
import { E2E_PASSWORD, FIXTURE_USERS, type FixtureRole } from "./users";

const require = createRequire(import.meta.url);
export const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type Width = keyof typeof WIDTHS;
export type Theme = "light" | "dark";

const todayMonth = () => new Date().toISOString().slice(0, 7);

export async function api(baseURL: string, email: string, password: string) {
  const context = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL, ...desk() } });
  const response = await context.post("/api/auth/password/login", { data: { email, password } });
  if (!response.ok()) throw new Error(`sign-in of ${email} failed: ${response.status()}`);
  return context;
}

export async function ok<T>(response: Awaited<ReturnType<Awaited<ReturnType<typeof api>>["get"]>>): Promise<T> {
  if (!response.ok()) throw new Error(`${response.url()}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

export type WalkData = {
  admin: string[];
  staff: string[];
  signedOut: string[];
  /**
   * The session cookies of a user who must change the temporary password: it signs in once
   * (decision 0600), so every walk shares the one session it opened.
   */
  mustChangeSession: Cookie[];
  totp: { email: string; password: string; secret: string };
  /** The session cookies of the two-factor user who turned it on (for Turn Off Two-factor). */
  totpSession: Cookie[];
};

type Cookie = Parameters<BrowserContext["addCookies"]>[0][number];

/**
 * Records what the dialog routes need (an agent, a client, a delivery to edit, an invoice to
 * pay, users to reset and freeze, a user with two-factor on, one who must change the
 * password) through the JSON calls, and lists every page by who can open it.
 */
export async function prepareWalk(baseURL: string): Promise<WalkData> {
  const admin = await api(baseURL, FIXTURE_USERS.admin.email, E2E_PASSWORD);
  const tag = unique();
  const agent = await ok<{ id: number }>(
    await admin.post("/api/agents", { data: { name: `Walk Agent ${tag}`, contact: "0803" } }),
  );
  const client = await ok<{ id: number }>(
    await admin.post("/api/clients", { data: { name: `Walk Client ${tag}`, taxRate: "7.5", paymentTermsDays: 30 } }),
  );
  const truck = await ok<{ id: number }>(
    await admin.post("/api/trucks", { data: { plate: `WLK ${tag}`, transporter: "Walk Haulage", usualTareKg: 12500 } }),
  );
  // A rate card naming the walk's client (decision 1230): the Rates page lists it, Delete opens over it.
  const rateCard = await ok<{ id: number }>(
    await admin.post("/api/rate-cards", {
      data: { kind: "selling", rate: "61000", validFrom: "2026-01-01", clientId: client.id, site: `Walk yard ${tag}` },
    }),
  );
  const delivery = await ok<{ id: number }>(
    await admin.post("/api/deliveries", {
      data: { agentId: agent.id, clientId: client.id, tons: "12.50", location: `Walk yard ${tag}` },
    }),
  );
  const invoiced = await ok<{ id: number }>(
    await admin.post("/api/deliveries", {
      data: { agentId: agent.id, clientId: client.id, tons: "8.00", location: `Walk yard ${tag}` },
    }),
  );
  const invoice = await ok<{ id: number }>(await admin.post("/api/invoices", { data: { deliveryId: invoiced.id } }));
  // The client's ticket with a photo (a 1×1 PNG), for Edit Delivery's weights and Record Ticket's
  // replacement (docs/decisions/1220).
  await ok(
    await admin.post(`/api/deliveries/${delivery.id}/tickets`, {
      data: {
        kind: "received",
        ticketNo: `W-${tag}`,
        truckNo: `WLK ${tag}`,
        grossKg: 27500,
        tareKg: 15000,
        moisture: "17.5",
        photo: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      },
    }),
  );
  // A payout to the agent (its delivery priced so that something is owed), for Reverse Payout.
  await ok(await admin.patch(`/api/deliveries/${delivery.id}`, { data: { buyingRate: "50000.00" } }));
  const payout = await ok<{ id: number }>(
    await admin.post(`/api/agents/${agent.id}/payouts`, { data: { amount: "1000.00", method: "cash" } }),
  );
  // A priced invoice with a payment, for Reverse Payment.
  const paidDelivery = await ok<{ id: number }>(
    await admin.post("/api/deliveries", {
      data: { agentId: agent.id, clientId: client.id, tons: "2.00", location: `Walk yard ${tag}` },
    }),
  );
  await ok(await admin.patch(`/api/deliveries/${paidDelivery.id}`, { data: { sellingRate: "65000.00" } }));
  const paidInvoice = await ok<{ id: number; amount: string }>(
    await admin.post("/api/invoices", { data: { deliveryId: paidDelivery.id } }),
  );
  const payment = await ok<{ id: number }>(
    await admin.post("/api/payments", { data: { invoiceId: paidInvoice.id, amount: "1000.00" } }),
  );
  // A credit note of its whole amount, for Reverse Credit Note; with the payment it leaves the
  // client a credit, for Refund Credit.
  const creditNote = await ok<{ id: number }>(
    await admin.post(`/api/invoices/${paidInvoice.id}/credit-notes`, {
      data: { amount: paidInvoice.amount, reason: "Walk credit" },
    }),
  );
  // A quality rule in effect today, for the client's page (decision 1210).
  await ok(
    await admin.post(`/api/clients/${client.id}/quality-rules`, {
      data: { validFrom: new Date().toISOString().slice(0, 10), moistureThreshold: "16", deductionPerPoint: "1" },
    }),
  );
  const users = await ok<{ id: string; email: string }[]>(await admin.get("/api/admin/users"));
  const staff2 = users.find((u) => u.email === FIXTURE_USERS.staff2.email)!;

  const mustChangeEmail = `walk-new-${tag}@e2e.test`;
  const created = await ok<{ temporaryPassword: string }>(
    await admin.post("/api/admin/users", { data: { email: mustChangeEmail, role: "staff" } }),
  );
  const mustChangeUser = await api(baseURL, mustChangeEmail, created.temporaryPassword);
  const mustChangeSession = (await mustChangeUser.storageState()).cookies;
  await mustChangeUser.dispose();
  const totpEmail = `walk-totp-${tag}@e2e.test`;
  const totpCreated = await ok<{ temporaryPassword: string }>(
    await admin.post("/api/admin/users", { data: { email: totpEmail, role: "manager" } }),
  );
  await admin.dispose();

  const totpPassword = "walk-totp-password";
  const totpUser = await api(baseURL, totpEmail, totpCreated.temporaryPassword);
  await ok(
    await totpUser.post("/api/auth/password/change", {
      data: { currentPassword: totpCreated.temporaryPassword, newPassword: totpPassword },
    }),
  );
  const signedIn = await api(baseURL, totpEmail, totpPassword);
  const started = await signedIn.post("/settings/two-factor", { form: { intent: "setup" }, maxRedirects: 0 });
  if (started.status() !== 302) throw new Error(`two-factor set-up did not start: ${started.status()}`);
  const setup = await (await signedIn.get("/settings/two-factor")).text();
  const secret = /data-secret="([A-Z2-7]+)"/.exec(setup)?.[1];
  if (!secret) throw new Error("no two-factor secret on the set-up page");
  const confirmed = await signedIn.post("/settings/two-factor", {
    form: { token: await generate({ secret }) },
    maxRedirects: 0,
  });
  if (confirmed.status() !== 302) throw new Error(`two-factor set-up failed: ${confirmed.status()}`);
  const totpSession = (await signedIn.storageState()).cookies;
  await signedIn.dispose();
  await totpUser.dispose();

  const adminPages = [
    "/",
    "/deliveries",
    "/deliveries?status=draft",
    "/deliveries/new",
    `/deliveries/${delivery.id}/edit`,
    `/deliveries/${invoiced.id}/edit`,
    `/deliveries/${delivery.id}/delete`,
    `/deliveries/${delivery.id}/tickets/new`,
    `/deliveries/${delivery.id}/tickets/new?kind=loading&back=edit`,
    `/deliveries/${invoiced.id}/tickets/new`,
    "/invoices",
    "/invoices/new",
    `/invoices/new?deliveryId=${delivery.id}`,
    `/invoices/${invoice.id}/pay`,
    `/invoices/${invoice.id}`,
    `/invoices/${invoice.id}/payment`,
    `/invoices/${invoice.id}/credit-note`,
    `/invoices/${invoice.id}/void`,
    `/invoices/${paidInvoice.id}/credit-notes/${creditNote.id}/reverse`,
    `/invoices/${paidInvoice.id}/refund`,
    `/invoices/${paidInvoice.id}/apply-credit`,
    "/payments",
    `/payments/${payment.id}/reverse`,
    "/reconciliation",
    `/reconciliation?confirm=${todayMonth()}`,
    "/tax",
    `/tax?month=${todayMonth()}`,
    "/reports/profit",
    "/reports/profit?by=month&then=site",
    "/receivables",
    // Reminders and a document's share links (docs/decisions/1260).
    "/reminders",
    `/share-links?scope=invoice&subjectId=${invoice.id}`,
    `/share-links?scope=client-statement&subjectId=${client.id}`,
    `/share-links?scope=agent-statement&subjectId=${agent.id}`,
    "/agents",
    "/agents/new",
    `/agents/${agent.id}/edit`,
    `/agents/${agent.id}/delete`,
    "/agents/owed",
    `/agents/${agent.id}/statement`,
    `/agents/${agent.id}/statement/payout`,
    `/agents/${agent.id}/statement/reverse/${payout.id}`,
    // Pending Approvals and its two dialogs (decision 1250), here on a payout already approved.
    "/payouts/pending",
    `/payouts/pending/${payout.id}/approve`,
    `/payouts/pending/${payout.id}/reject`,
    "/clients",
    "/clients/new",
    `/clients/${client.id}/edit`,
    `/clients/${client.id}/delete`,
    `/clients/${client.id}/statement`,
    `/clients/${client.id}`,
    `/clients/${client.id}/quality-rules/new`,
    "/trucks",
    "/trucks/new",
    `/trucks/${truck.id}/edit`,
    "/rates",
    "/rates/new",
    `/rates/${rateCard.id}/delete`,
    "/settings",
    "/settings/password",
    "/settings/two-factor",
    "/settings/passkeys/new",
    "/settings/users/new",
    `/settings/users/${staff2.id}/reset`,
    `/settings/users/${staff2.id}/delete`,
    `/settings/users/bulk?intent=freeze&userIds=${staff2.id}`,
    "/no-such-page",
  ];
  const staffPages = ["/", "/deliveries", "/deliveries/new", "/settings", "/settings/password", "/invoices"];
  const signedOut = ["/login", "/login?dialog=email", "/login?dialog=passkey"];
  return {
    admin: adminPages,
    staff: staffPages,
    signedOut,
    mustChangeSession,
    totp: { email: totpEmail, password: totpPassword, secret },
    totpSession,
  };
}

/**
 * A browser context in the given theme and width. `javaScript: false` keeps the browser able to
 * run axe but refuses every script of the page.
 */
export async function walkContext(
  browser: Browser,
  baseURL: string,
  { theme, width, javaScript, axe = false }: { theme: Theme; width: Width; javaScript: boolean; axe?: boolean },
) {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: desk(),
    viewport: WIDTHS[width],
    javaScriptEnabled: true,
  });
  // For checkPage: axe goes in with every document the context opens, before the page's own
  // scripts; sending its 550 KB source to each page after it loaded cost more (the eight walks:
  // 137 s of page, injection and axe time before, 129 s after, decision 0840).
  if (axe) await context.addInitScript({ content: AXE_SOURCE });
  const { hostname } = new URL(baseURL);
  await context.addCookies([{ name: "theme", value: theme, domain: hostname, path: "/" }]);
  if (!javaScript) {
    await context.route("**/*", async (route) => {
      if (route.request().resourceType() !== "document") return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      const headers = { ...response.headers(), "content-security-policy": "script-src 'none'" };
      await route.fulfill({ response, headers });
    });
  }
  return context;
}

export async function signIn(
  context: BrowserContext,
  baseURL: string,
  role: FixtureRole | { email: string; password: string },
) {
  const who = typeof role === "string" ? { email: FIXTURE_USERS[role].email, password: E2E_PASSWORD } : role;
  const response = await context.request.post("/api/auth/password/login", { data: who, headers: { Origin: baseURL } });
  if (response.status() !== 200) throw new Error(`sign-in of ${who.email} failed: ${response.status()}`);
}

export type Finding = { url: string; problem: string };

/**
 * Opens a page once and reports serious or critical axe violations and sideways scroll at phone
 * width. The page's context comes from walkContext with `axe: true`.
 */
export async function checkPage(
  page: Page,
  url: string,
  { javaScript, width }: { javaScript: boolean; width: Width },
): Promise<Finding[]> {
  await page.goto(url);
  if (javaScript) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // Let the counters and the dialog's focus settle; axe reads the page as it stands.
  await page.waitForLoadState("load");
  const findings: Finding[] = [];
  // Without JavaScript the page must not have run its scripts: a walk whose policy did not
  // arrive would check the hydrated page twice and the page without JavaScript never.
  if (!javaScript && (await page.locator("html[data-hydrated]").count()) > 0) {
    findings.push({ url, problem: "the page ran its scripts in the walk without JavaScript" });
  }
  if (width === "phone") {
    const problem = await sidewaysScroll(page);
    if (problem) findings.push({ url, problem });
  }
  for (const v of await seriousAxeViolations(page)) {
    findings.push({ url, problem: `axe ${v.impact} ${v.id}: ${v.help} (${v.targets.join(", ")})` });
  }
  return findings;
}

/** "scrolls sideways: …" when the page is wider than its viewport, else null. */
export async function sidewaysScroll(page: Page): Promise<string | null> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  return scrollWidth > innerWidth ? `scrolls sideways: ${scrollWidth}px wide in a ${innerWidth}px viewport` : null;
}

export type AxeViolation = { id: string; impact: string; help: string; targets: string[] };

/**
 * The serious and critical axe-core violations on the page as it stands (axe must be in the
 * page already: walkContext's init script, or an evaluate of its source). Shared by the walk and
 * the offline journeys; `tests/e2e/a11y.spec.ts` proves on a page built to fail that it reports.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run: (
          ctx: Document,
          options: object,
        ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await w.axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
      }));
  });
}
