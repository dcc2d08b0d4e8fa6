// Share links (docs/decisions/1260), on both drivers: made and revoked through the JSON calls by
// who may see the document, refused to who may not; the shared page opens signed out with its
// headers, counts views, shows its one document and nothing of a second client's; revoked and
// expired links are a 410 that says nothing of the document, unknown and partial tokens a 404,
// and an address that keeps guessing is throttled.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { openShareLink, tokenHash } from "../../app/models/share-link.server";
import * as shareApi from "../../app/routes/api.share-links";
import * as shareIdApi from "../../app/routes/api.share-links.$id";
import * as sharePage from "../../app/routes/_app.share-links";
import * as sharedPage from "../../app/routes/s.$token";
import * as sharedPdf from "../../app/routes/s.$token_.pdf";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { SHARE_MISS_LIMIT } from "../../app/utils/throttle.server";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let manager: { user: User; cookie: string };
let admin: { user: User; cookie: string };
let staff: { user: User; cookie: string };
let mine: { id: number; invoiceNo: string };
let mineClient: { id: number; name: string };
let otherClient: { id: number; name: string };
let agent: { id: number; name: string };

async function invoiceFor(clientId: number, sellingRate: string) {
  const delivery = await createDelivery({
    agentId: agent.id,
    clientId,
    createdBy: manager.user.id,
    sellingRate,
    tons: "2.000",
  });
  const made = await createInvoiceForDelivery(manager.user, { deliveryId: delivery.id });
  if (!made.ok) throw new Error(made.message);
  return made.invoice;
}

const create = (cookie: string, json: unknown) =>
  call(shareApi.action, makeRequest("/api/share-links", { method: "POST", cookie, json }));
const open = (token: string, address = "10.1.1.1") =>
  call(sharedPage.loader, makeRequest(`/s/${token}`), { token }, { clientAddress: address });
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

beforeAll(async () => {
  manager = await loginAs("manager");
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  agent = await createAgent({ name: "Shared Agent" });
  mineClient = await createClient({ name: "Kodan Mills", paymentTermsDays: 0 });
  otherClient = await createClient({ name: "Secret Other Oils", paymentTermsDays: 0 });
  mine = await invoiceFor(mineClient.id, "1000.00");
  await invoiceFor(otherClient.id, "777777.00");
});

describe("share links", () => {
  it("made on the page, go to the page by a redirect with the address in a flash read once: a reload makes no second link", async () => {
    const db = await getDb();
    const path = `/share-links?scope=invoice&subjectId=${mine.id}`;
    const count = async () =>
      (
        await db
          .select({ id: schema.shareLinks.id })
          .from(schema.shareLinks)
          .where(and(eq(schema.shareLinks.scope, "invoice"), eq(schema.shareLinks.subjectId, mine.id)))
      ).length;
    const before = await count();
    const posted = await call(
      sharePage.action,
      makeRequest(path, {
        method: "POST",
        cookie: manager.cookie,
        form: { intent: "create", scope: "invoice", subjectId: String(mine.id), expiresInDays: "7" },
      }),
    );
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe(path);
    expect(await count()).toBe(before + 1);
    const flash = posted.headers.getSetCookie().find((c) => c.startsWith("__new_share_link="));
    expect(flash).toMatch(/HttpOnly/);
    const withFlash = `${manager.cookie}; ${flash!.split(";")[0]}`;

    const page = await call(sharePage.loader, makeRequest(path, { cookie: withFlash }));
    const created = (page.body as { created: { url: string } | null }).created;
    expect(created?.url).toMatch(/\/s\/[A-Za-z0-9_-]{20,}$/);
    expect(page.headers.getSetCookie().some((c) => /^__new_share_link=;.*Max-Age=0/.test(c))).toBe(true);
    // The flash belongs to that document: another document's page does not show it.
    const other = await call(
      sharePage.loader,
      makeRequest(`/share-links?scope=client-statement&subjectId=${mineClient.id}`, { cookie: withFlash }),
    );
    expect((other.body as { created: unknown }).created).toBeNull();
    // Reloading after the flash is spent shows the list, and nothing was posted twice.
    const reloaded = await call(sharePage.loader, makeRequest(path, { cookie: manager.cookie }));
    expect((reloaded.body as { created: unknown }).created).toBeNull();
    expect(await count()).toBe(before + 1);
  });

  it("are made by who may see the document: a URL on the app's origin shown once, only its hash kept", async () => {
    const made = await create(manager.cookie, { scope: "invoice", subjectId: mine.id });
    expect(made.status).toBe(201);
    const body = made.body as { id: number; url: string; expiresAt: string };
    expect(body.url).toMatch(/^http:\/\/localhost\/s\/[A-Za-z0-9_-]{22}$/);
    const days = (Date.parse(body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const db = await getDb();
    const [row] = await db.select().from(schema.shareLinks).where(eq(schema.shareLinks.id, body.id));
    expect(row.tokenHash).toBe(tokenHash(tokenOf(body.url)));
    expect(JSON.stringify(row)).not.toContain(tokenOf(body.url));
    const audit = await db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "share_link.create"), eq(schema.auditEvents.entityId, String(body.id))));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0])).not.toContain(tokenOf(body.url));
  });

  it("refuse an expiry out of range, an unknown scope or subject, and who may not see the document", async () => {
    for (const expiresInDays of [0, 181, 2.5, "soon", -1]) {
      const r = await create(manager.cookie, { scope: "invoice", subjectId: mine.id, expiresInDays });
      expect(r.status, String(expiresInDays)).toBe(400);
      expect(r.body).toMatchObject({ errors: { expiresInDays: [expect.stringContaining("1 to 180")] } });
    }
    expect((await create(manager.cookie, { scope: "payment", subjectId: mine.id })).status).toBe(400);
    expect((await create(manager.cookie, { scope: "invoice", subjectId: 999999 })).status).toBe(404);
    expect((await create(staff.cookie, { scope: "invoice", subjectId: mine.id })).status).toBe(403);
    // An agent statement is an admin's figure (decision 0980): a manager may not share it.
    expect((await create(manager.cookie, { scope: "agent-statement", subjectId: agent.id })).status).toBe(403);
    expect(
      (await create(admin.cookie, { scope: "agent-statement", subjectId: agent.id, expiresInDays: 180 })).status,
    ).toBe(201);
    const db = await getDb();
    const links = await db.select().from(schema.shareLinks).where(eq(schema.shareLinks.scope, "invoice"));
    expect(links.every((l) => l.subjectId === mine.id)).toBe(true);
  });

  it("open signed out: the one invoice, not indexed, no referrer, no app, views counted", async () => {
    const made = (await create(manager.cookie, { scope: "invoice", subjectId: mine.id })).body as {
      id: number;
      url: string;
    };
    const token = tokenOf(made.url);
    const page = await open(token);
    expect(page.status).toBe(200);
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(page.headers.get("X-Robots-Tag")).toContain("noindex");
    const html = String(page.body);
    expect(html).toContain(`Invoice ${mine.invoiceNo}`);
    expect(html).toContain("Kodan Mills");
    expect(html).toContain('name="robots" content="noindex, nofollow"');
    expect(html).toContain(`/s/${token}/pdf`);
    // Nothing of the app and nothing of another client.
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/href="\/(invoices|clients|agents|deliveries|settings)/);
    expect(html).not.toContain("Secret Other Oils");
    expect(html).not.toContain("777,777");
    await open(token);
    const listed = await call(
      shareApi.loader,
      makeRequest(`/api/share-links?scope=invoice&subjectId=${mine.id}`, { cookie: manager.cookie }),
    );
    const link = (listed.body as { id: number; viewCount: number; lastViewedAt: string | null; state: string }[]).find(
      (l) => l.id === made.id,
    );
    expect(link).toMatchObject({ viewCount: 2, state: "active" });
    expect(link?.lastViewedAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(token);
  });

  it("shows a client's statement with its own lines only, and its PDF", async () => {
    const made = (await create(manager.cookie, { scope: "client-statement", subjectId: mineClient.id })).body as {
      url: string;
    };
    const token = tokenOf(made.url);
    const html = String((await open(token)).body);
    expect(html).toContain("STATEMENT OF ACCOUNT");
    expect(html).toContain("Kodan Mills");
    expect(html).toContain(mine.invoiceNo);
    expect(html).not.toContain("Secret Other Oils");
    expect(html).not.toContain("777,777");
    const pdf = await sharedPdf.loader({
      request: makeRequest(`/s/${token}/pdf`),
      params: { token },
      context: { clientAddress: "10.1.1.2" },
    } as never);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Referrer-Policy")).toBe("no-referrer");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
  });

  it("revoked: a 410 that says nothing of what it was; revoking again writes nothing", async () => {
    const made = (await create(manager.cookie, { scope: "invoice", subjectId: mine.id })).body as {
      id: number;
      url: string;
    };
    const token = tokenOf(made.url);
    expect(
      (
        await call(
          shareIdApi.action,
          makeRequest(`/api/share-links/${made.id}`, { method: "DELETE", cookie: staff.cookie }),
          { id: String(made.id) },
        )
      ).status,
    ).toBe(403);
    const revoked = await call(
      shareIdApi.action,
      makeRequest(`/api/share-links/${made.id}`, { method: "DELETE", cookie: manager.cookie }),
      { id: String(made.id) },
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: made.id, state: "revoked" });
    const again = await call(
      shareIdApi.action,
      makeRequest(`/api/share-links/${made.id}`, { method: "DELETE", cookie: manager.cookie }),
      { id: String(made.id) },
    );
    expect(again.status).toBe(200);
    const db = await getDb();
    const events = await db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "share_link.revoke"), eq(schema.auditEvents.entityId, String(made.id))));
    expect(events).toHaveLength(1);
    const page = await open(token, "10.2.2.2");
    expect(page.status).toBe(410);
    const html = String(page.body);
    expect(html).toContain("expired or was withdrawn");
    expect(html).not.toContain(mine.invoiceNo);
    expect(html).not.toContain("Kodan");
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
  });

  it("expired: 410 from the moment it expires", async () => {
    const made = (await create(manager.cookie, { scope: "invoice", subjectId: mine.id, expiresInDays: 1 })).body as {
      url: string;
      expiresAt: string;
    };
    const token = tokenOf(made.url);
    const expiry = new Date(made.expiresAt);
    expect((await openShareLink(token, "10.3.3.3", { now: new Date(expiry.getTime() - 1000) })).ok).toBe(true);
    expect(await openShareLink(token, "10.3.3.3", { now: expiry })).toMatchObject({ ok: false, status: 410 });
  });

  it("unknown, partial or malformed tokens are a 404; an address that keeps guessing gets a 429 with Retry-After", async () => {
    const made = (await create(manager.cookie, { scope: "invoice", subjectId: mine.id })).body as { url: string };
    const token = tokenOf(made.url);
    expect((await open(token.slice(0, 21), "10.4.4.4")).status).toBe(404);
    expect((await open(`${token}x`, "10.4.4.4")).status).toBe(404);
    expect((await open("AAAAAAAAAAAAAAAAAAAAAA", "10.4.4.4")).status).toBe(404);
    expect((await open("../../etc/passwd", "10.4.4.4")).status).toBe(404);
    for (let i = 4; i < SHARE_MISS_LIMIT; i++) await open(`guess-${i}`, "10.4.4.4");
    const refused = await open(token, "10.4.4.4");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(String(refused.body)).not.toContain(mine.invoiceNo);
    // Another address is not held back, and the real link still opens there.
    expect((await open(token, "10.5.5.5")).status).toBe(200);
  });
});
