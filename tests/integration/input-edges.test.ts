// Control characters, strict dates and the JSON content type (decision 0706): a clear
// 4xx that changes nothing, never a 500.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import * as newDelivery from "../../app/routes/_app.deliveries.new";
import * as apiAgents from "../../app/routes/api.agents";
import * as apiDeliveries from "../../app/routes/api.deliveries";
import * as apiLogin from "../../app/routes/api.auth.password.login";
import * as apiLogout from "../../app/routes/api.auth.password.logout";
import * as apiPayments from "../../app/routes/api.payments";
import * as apiPasskeyOptions from "../../app/routes/api.passkeys.authenticate.options";
import * as apiPasskeyVerify from "../../app/routes/api.passkeys.authenticate.verify";
import * as agentsPage from "../../app/routes/_app.agents";
import * as agentsExport from "../../app/routes/_app.agents.export";
import * as clientsPage from "../../app/routes/_app.clients";
import * as newInvoice from "../../app/routes/_app.invoices.new";
import * as paymentsPage from "../../app/routes/_app.payments";
import * as apiAudit from "../../app/routes/api.audit";
import { todayIn } from "../../app/utils/dates";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let agentId: number;

beforeAll(async () => {
  process.env.DELIVERY_CLIENT_NAME = "Kodan";
  const { resetEnv } = await import("../../app/utils/env.server");
  resetEnv();
  await createClient({ name: "Kodan" });
  agentId = (await createAgent()).id;
});

async function deliveryCount() {
  const db = await getDb();
  return (await db.select({ n: sql<number>`count(*)::int` }).from(schema.deliveries))[0].n;
}

describe("control characters", () => {
  it.each([
    ["location", { location: "Ikorodu\u0000yard" }],
    ["location", { location: "Ikorodu\nyard" }],
    ["location", { location: "Ikorodu\u001byard" }],
    ["remarks", { location: "Ikorodu", remarks: "late\u0000" }],
    ["otherCostsDescription", { location: "Ikorodu", otherCostsDescription: "tyre\u0007" }],
  ])("a %s with a control character is a 400 with a field message, nothing stored", async (field, extra) => {
    const { cookie } = await loginAs("staff");
    const before = await deliveryCount();
    const res = await call(
      apiDeliveries.action,
      makeRequest("/api/deliveries", { method: "POST", cookie, json: { agentId, tons: "1", ...extra } }),
    );
    expect(res.status).toBe(400);
    expect((res.body as { errors: Record<string, string[]> }).errors[field][0]).toMatch(/control characters/);
    expect(await deliveryCount()).toBe(before);
  });

  it("remarks may hold line breaks", async () => {
    const { cookie } = await loginAs("staff");
    const res = await call(
      apiDeliveries.action,
      makeRequest("/api/deliveries", {
        method: "POST",
        cookie,
        json: { agentId, tons: "1", location: "Sagamu", remarks: "first line\r\nsecond line" },
      }),
    );
    expect(res.status).toBe(201);
  });

  it("the HTML form answers a NUL byte with the field message", async () => {
    const { cookie } = await loginAs("staff");
    const res = await call(
      newDelivery.action,
      makeRequest("/deliveries/new", {
        method: "POST",
        cookie,
        form: { agentId: String(agentId), tons: "2", location: "Ore\u0000" },
      }),
    );
    expect(res.status).toBe(400);
    // Conform's reply carries the field messages (decision 0820).
    expect((res.body as { result: { error: Record<string, string[]> } }).result.error.location[0]).toMatch(
      /control characters/,
    );
  });

  it("an agent name with a NUL is a 400", async () => {
    const { cookie } = await loginAs("admin");
    const res = await call(
      apiAgents.action,
      makeRequest("/api/agents", { method: "POST", cookie, json: { name: "Musa\u0000" } }),
    );
    expect(res.status).toBe(400);
  });

  it("a NUL in a sign-in e-mail is a refusal, not a 500", async () => {
    const res = await call(
      apiLogin.action,
      makeRequest("/api/auth/password/login", {
        method: "POST",
        json: { email: "a\u0000@example.test", password: "whatever-1" },
      }),
    );
    expect(res.status).toBe(401);
    const opts = await call(
      apiPasskeyOptions.action,
      makeRequest("/api/passkeys/authenticate/options", { method: "POST", json: { email: "a\u0000@x.test" } }),
    );
    expect(opts.status).toBe(200);
  });
});

describe("a control character in search and filter text (a NUL byte once reached PostgreSQL)", () => {
  it("pages show their list as if the term were not there", async () => {
    const { cookie } = await loginAs("manager");
    const pages: [Parameters<typeof call>[0], string][] = [
      [agentsPage.loader, "/agents?q=%00"],
      [agentsExport.loader, "/agents/export?q=Musa%00"],
      [clientsPage.loader, "/clients?q=%01x"],
      [newInvoice.loader, "/invoices/new?agent=%00&location=a%00b"],
      [paymentsPage.loader, "/payments?reference=%00"],
    ];
    for (const [loader, url] of pages) {
      const res = await call(loader, makeRequest(url, { cookie }));
      expect(res.status, url).toBe(200);
    }
  });

  it("JSON calls answer 400", async () => {
    const { cookie } = await loginAs("admin");
    for (const url of ["/api/payments?reference=%00", "/api/audit?actor=%00", "/api/audit?entityId=1%00"]) {
      const loader = url.startsWith("/api/audit") ? apiAudit.loader : apiPayments.loader;
      const res = await call(loader, makeRequest(url, { cookie }));
      expect(res.status, url).toBe(400);
    }
  });

  it("a passkey challenge or credential id that is not base64url is a failed sign-in, signed out", async () => {
    const clientData = (challenge: string) =>
      Buffer.from(JSON.stringify({ challenge, type: "webauthn.get" })).toString("base64url");
    for (const credential of [
      { id: "x", response: { clientDataJSON: clientData("\u0000") } },
      { id: "x\u0000", response: { clientDataJSON: clientData("abc") } },
    ]) {
      const res = await call(
        apiPasskeyVerify.action,
        makeRequest("/api/passkeys/authenticate/verify", { method: "POST", json: { credential } }),
      );
      expect(res.status).toBe(400);
    }
  });
});

describe("dates are yyyy-MM-dd and real calendar days", () => {
  it.each(["2025-02-28T99:00", "2025-02-28T10:00", "2025-02-30", "2025-2-28", "28/02/2025", "2025-02-28 "])(
    "refuses %j as a delivery date",
    async (date) => {
      const { cookie } = await loginAs("staff");
      const res = await call(
        apiDeliveries.action,
        makeRequest("/api/deliveries", {
          method: "POST",
          cookie,
          json: { agentId, tons: "1", location: "Aba road", date: date.trim() === date ? date : `${date}x` },
        }),
      );
      expect(res.status).toBe(400);
      expect((res.body as { errors: Record<string, string[]> }).errors.date).toBeDefined();
    },
  );

  it("refuses a payment date with a time", async () => {
    const { cookie, user } = await loginAs("manager");
    const client = await createClient();
    const d = await createDelivery({ agentId, clientId: client.id, createdBy: user.id, date: todayIn("Africa/Lagos") });
    const inv = await createInvoiceForDelivery(user, { deliveryId: d.id });
    if (!inv.ok) throw new Error(inv.message);
    const res = await call(
      apiPayments.action,
      makeRequest("/api/payments", {
        method: "POST",
        cookie,
        json: { invoiceId: inv.invoice.id, amount: "1", paymentDate: `${todayIn("Africa/Lagos")}T99:00` },
      }),
    );
    expect(res.status).toBe(400);
    const db = await getDb();
    expect(await db.select().from(schema.payments).where(eq(schema.payments.invoiceId, inv.invoice.id))).toHaveLength(
      0,
    );
  });
});

describe("JSON writes need application/json", () => {
  const raw = (cookie: string, body: string, contentType?: string) => {
    const headers = new Headers({ Cookie: cookie });
    if (contentType) headers.set("Content-Type", contentType);
    return new Request("http://localhost/api/agents", { method: "POST", headers, body });
  };

  it.each([["text/plain"], ["application/x-www-form-urlencoded"], [undefined]])(
    "a body sent as %s is 415 and acts on nothing",
    async (type) => {
      const { cookie } = await loginAs("admin");
      const name = `Plain ${type ?? "none"} ${Date.now()}`;
      const res = await call(apiAgents.action, raw(cookie, JSON.stringify({ name }), type));
      expect(res.status).toBe(415);
      const db = await getDb();
      expect(await db.select().from(schema.agents).where(eq(schema.agents.name, name))).toHaveLength(0);
    },
  );

  it("application/json with a charset works; calls without a body still work", async () => {
    const { cookie } = await loginAs("admin");
    const ok = await call(
      apiAgents.action,
      raw(cookie, JSON.stringify({ name: `Charset ${Date.now()}` }), "application/json; charset=utf-8"),
    );
    expect(ok.status).toBe(201);
    const out = await call(
      apiLogout.action,
      new Request("http://localhost/api/auth/password/logout", { method: "POST", headers: { Cookie: cookie } }),
    );
    expect(out.status).toBe(200);
  });
});
