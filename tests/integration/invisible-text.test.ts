// Text that is not what it looks like (decision 0706): a right-to-left override or a zero-width
// character in a one-line field, or a lone surrogate anywhere, is refused with a message and
// nothing is written; text is stored composed (NFC), so what is printed on invoices, PDFs and
// CSVs is what was typed and seen.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import * as apiAgents from "../../app/routes/api.agents";
import * as apiDeliveries from "../../app/routes/api.deliveries";
import * as newDelivery from "../../app/routes/_app.deliveries.new";
import { createAgent, createClient, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let admin: Awaited<ReturnType<typeof loginAs>>;
let agentId: number;
let clientId: number;

beforeAll(async () => {
  admin = await loginAs("admin");
  agentId = (await createAgent()).id;
  clientId = (await createClient()).id;
});

const post = (action: typeof apiAgents.action, url: string, json: unknown) =>
  call(action, makeRequest(url, { method: "POST", cookie: admin.cookie, json }));

async function agentsNamed(name: string) {
  return (await getDb()).select().from(schema.agents).where(eq(schema.agents.name, name));
}

describe("one-line text", () => {
  it("refuses a direction override or an invisible character in a name, a location or a reference", async () => {
    for (const name of ["Musa\u202Eevil", "Mu\u200Bsa", "\u2066Musa\u2069", "Musa\uFEFF"]) {
      const reply = await post(apiAgents.action, "/api/agents", { name });
      expect(reply, JSON.stringify(name)).toMatchObject({
        status: 400,
        body: { message: "Agent name must not contain invisible or text-direction characters" },
      });
    }
    const delivery = await post(apiDeliveries.action, "/api/deliveries", {
      agentId,
      clientId,
      tons: "1.00",
      location: "Yard",
      truckNo: "KJA\u200D123",
    });
    expect(delivery).toMatchObject({
      status: 400,
      body: { errors: { truckNo: ["Truck No. must not contain invisible or text-direction characters"] } },
    });
    expect(await agentsNamed("Musa")).toEqual([]);
  });

  it("refuses a lone surrogate, in a JSON escape or a form's bytes, where it was stored as U+FFFD", async () => {
    const json = await post(apiAgents.action, "/api/agents", '{"name":"Musa \\ud800"}');
    expect(json.status).toBe(400);
    const form = await call(
      newDelivery.action,
      new Request("http://localhost/deliveries/new", {
        method: "POST",
        headers: { Cookie: admin.cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: `agentId=${agentId}&tons=1&location=Yard%ED%A0%80`,
      }),
    );
    expect(form.status).toBe(400);
    const db = await getDb();
    expect(await db.select().from(schema.deliveries).where(eq(schema.deliveries.location, "Yard\uFFFD"))).toEqual([]);
  });

  it("stores text composed (NFC): e and a combining accent are kept as the one letter", async () => {
    const reply = await post(apiAgents.action, "/api/agents", { name: "Ade\u0301bayo\u0300" });
    expect(reply.status).toBe(201);
    const [stored] = await agentsNamed("Adébayò");
    expect(stored.name).toBe("Ad\u00E9bay\u00F2");
    // Scripts written right to left are text like any other.
    expect((await post(apiAgents.action, "/api/agents", { name: "عبد الله" })).status).toBe(201);
  });
});
