// A page action posted something that is not a readable form (JSON, plain text, a multipart
// body cut short) threw from request.formData() and answered 500. Every action now reads its
// form through readForm (app/utils/http.server.ts): 415 for a body that is not a form, 400 for
// a form that does not parse, and nothing written.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/db.server";
import * as apiBusiness from "../../app/routes/api.settings.business";
import * as business from "../../app/routes/_app.settings_.business";
import * as newDelivery from "../../app/routes/_app.deliveries.new";
import { FORM_TYPE_MESSAGE, readForm, UNREADABLE_FORM_MESSAGE } from "../../app/utils/http.server";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call } from "../http";

const ROUTES = path.resolve(__dirname, "../../app/routes");

type Bad = { name: string; type: string | null; body: string; status: 400 | 415 };
const BAD_BODIES: Bad[] = [
  { name: "a JSON body", type: "application/json", body: JSON.stringify({ amount: "100.00" }), status: 415 },
  { name: "plain text", type: "text/plain", body: "amount=100.00", status: 415 },
  { name: "a body without a content type", type: null, body: "amount=100.00", status: 415 },
  { name: "multipart without a boundary", type: "multipart/form-data", body: "amount=100.00", status: 400 },
  {
    name: "multipart cut short",
    type: "multipart/form-data; boundary=zz",
    body: '--zz\r\nContent-Disposition: form-data; name="amount"\r\n\r\n100',
    status: 400,
  },
];

function post(url: string, cookie: string, bad: Bad, method = "POST") {
  const headers = new Headers({ Cookie: cookie, Origin: "http://localhost" });
  if (bad.type) headers.set("Content-Type", bad.type);
  const request = new Request(`http://localhost${url}`, { method, headers, body: bad.body });
  // fetch's Request gives a string body a text/plain type of its own; the case without one must not have it.
  if (!bad.type) request.headers.delete("Content-Type");
  return request;
}

/** Rows in every table that an action can write: the same before and after a refused post. */
async function rowCounts() {
  const db = await getDb();
  const result = await db.execute(sql`
    select (select count(*) from deliveries)::int as deliveries, (select count(*) from invoices)::int as invoices,
           (select count(*) from payments)::int as payments, (select count(*) from agents)::int as agents,
           (select count(*) from clients)::int as clients, (select count(*) from users)::int as users,
           (select count(*) from sessions)::int as sessions, (select count(*) from audit_events)::int as audit,
           (select count(*) from credit_notes)::int as credit_notes, (select count(*) from agent_payouts)::int as payouts,
           (select count(*) from passkeys)::int as passkeys, (select count(*) from period_close)::int as closed_months,
           (select updated_at from settings limit 1)::text as settings_saved`);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows)[0];
}

let admin: Awaited<ReturnType<typeof loginAs>>;
let ids: Record<string, string>;

beforeAll(async () => {
  admin = await loginAs("admin");
  const agent = await createAgent();
  const client = await createClient({ name: "Kodan" });
  const delivery = await createDelivery({ agentId: agent.id, clientId: client.id, createdBy: admin.user.id });
  ids = { id: String(delivery.id), payoutId: "1", creditNoteId: "1" };
});

describe("every action that reads a form refuses a body that is not one", () => {
  // Each reads its form with readForm, or through a helper that does (Record Payment's two
  // dialogs, the logo form).
  const READS_A_FORM = /\b(readForm|submitRecordPayment|readUploadForm)\(/;
  const formRoutes = readdirSync(ROUTES).filter(
    (file) => file.endsWith(".tsx") && READS_A_FORM.test(readFileSync(path.join(ROUTES, file), "utf8")),
  );

  it("finds the form routes", () => {
    // 35 page actions read a form; a search that found none would pass everything below.
    expect(formRoutes.length).toBeGreaterThanOrEqual(35);
  });

  for (const bad of BAD_BODIES) {
    it(`${bad.name}: a refusal or redirect from each, never a 500, and nothing written`, async () => {
      const before = await rowCounts();
      const answers: Record<string, number> = {};
      for (const file of formRoutes) {
        const route = (await import(path.join(ROUTES, file))) as { action?: Parameters<typeof call>[0] };
        const url = `/${file.replace(/\.tsx$/, "")}`;
        // A thrown error that is not a Response (the old 500) fails the test here.
        const res = await call(route.action, post(url, admin.cookie, bad), ids);
        answers[file] = res.status;
      }
      // A few answer before reading (sign-in and Change Password redirect a signed-in admin away).
      expect(Object.entries(answers).filter(([, status]) => status < 300 || status >= 500)).toEqual([]);
      // Most read the form before anything else can refuse the post.
      expect(Object.values(answers).filter((status) => status === bad.status).length).toBeGreaterThanOrEqual(25);
      expect(await rowCounts()).toEqual(before);
    });
  }
});

describe("what the refusal says", () => {
  it("New Delivery: 415 for JSON and 400 for a broken multipart, each with its message", async () => {
    const json = await call(newDelivery.action, post("/deliveries/new", admin.cookie, BAD_BODIES[0]));
    expect(json).toMatchObject({ status: 415, body: FORM_TYPE_MESSAGE });
    const broken = await call(newDelivery.action, post("/deliveries/new", admin.cookie, BAD_BODIES[4]));
    expect(broken).toMatchObject({ status: 400, body: UNREADABLE_FORM_MESSAGE });
  });

  it("the logo upload: a multipart body cut short is a 400 on the page and in JSON on the API", async () => {
    const page = await call(business.action, post("/settings/business", admin.cookie, BAD_BODIES[4]));
    expect(page).toMatchObject({ status: 400, body: UNREADABLE_FORM_MESSAGE });
    const api = await call(apiBusiness.action, post("/api/settings/business", admin.cookie, BAD_BODIES[4], "PUT"));
    expect(api).toMatchObject({ status: 400, body: { message: UNREADABLE_FORM_MESSAGE } });
  });

  it("a form read twice is the app's own fault: an Error (a logged 500), not the client's 400", async () => {
    const request = new Request("http://localhost/agents/new", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=Musa",
    });
    expect((await readForm(request)).get("name")).toBe("Musa");
    await expect(readForm(request)).rejects.toThrow("the request body was already read");
  });
});
