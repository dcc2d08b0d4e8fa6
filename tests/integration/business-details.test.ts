// Business details (docs/decisions/0953): the admin's form with a logo upload, the
// logo's validation (magic bytes, 200 KB) with nothing written on a refusal, the logo route's
// cache headers, and the optional contact fields of clients and agents.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { createAgent as createAgentModel, updateAgent } from "../../app/models/agent.server";
import { getBusinessDetails } from "../../app/models/business.server";
import { createClient as createClientModel } from "../../app/models/client.server";
import * as page from "../../app/routes/_app.settings_.business";
import * as api from "../../app/routes/api.settings.business";
import * as logoRoute from "../../app/routes/resources.logo";
import { LOGO_MAX_BYTES } from "../../app/utils/logo.server";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);

const FIELDS = {
  companyName: "PKS Trading Ltd",
  address: "12 Wharf Road\nApapa, Lagos",
  phone: "0803 000 0000",
  email: "accounts@pks.test",
  registrationNo: "RC 123456",
  taxNo: "TIN 9876-0001",
  bankName: "First Bank",
  bankAccountName: "PKS Trading Ltd",
  bankAccountNo: "3012345678",
};

function multipart(path: string, cookie: string, fields: Record<string, string>, logo?: Uint8Array, name = "logo.png") {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append("logo", new Blob([new Uint8Array(logo ?? [])]), logo ? name : "");
  return new Request(`http://localhost${path}`, {
    method: path.startsWith("/api") ? "PUT" : "POST",
    body,
    headers: { Cookie: cookie },
  });
}

async function stored() {
  const [row] = await (await getDb()).select().from(schema.businessDetails);
  return row ?? null;
}

describe("business details", () => {
  it("an admin saves the details with a PNG logo; the logo is served with its type and a long cache", async () => {
    const { cookie } = await loginAs("admin");
    const res = await call(page.action, multipart("/settings/business", cookie, FIELDS, PNG));
    expect(res.status).toBe(302);
    const details = await getBusinessDetails();
    expect(details).toMatchObject(FIELDS);
    expect(details.logoUrl).toMatch(/^\/resources\/logo\?v=\d+$/);
    const logo = await logoRoute.loader({
      request: makeRequest(details.logoUrl!, { cookie }),
      params: {},
      context: {},
    });
    expect(logo.status).toBe(200);
    expect(logo.headers.get("Content-Type")).toBe("image/png");
    expect(logo.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    expect(new Uint8Array(await logo.arrayBuffer())).toEqual(PNG);
    const unversioned = await logoRoute.loader({
      request: makeRequest("/resources/logo", { cookie }),
      params: {},
      context: {},
    });
    expect(unversioned.headers.get("Cache-Control")).toBe("private, no-cache");
    const again = await logoRoute.loader({
      request: makeRequest("/resources/logo", { cookie, headers: { "If-None-Match": logo.headers.get("ETag")! } }),
      params: {},
      context: {},
    });
    expect(again.status).toBe(304);

    // Saving without a file keeps the logo; a JPEG replaces it; "remove" clears it.
    await call(page.action, multipart("/settings/business", cookie, { ...FIELDS, phone: "" }));
    expect((await stored())?.logoType).toBe("image/png");
    expect((await stored())?.phone).toBeNull();
    await call(page.action, multipart("/settings/business", cookie, FIELDS, JPEG, "logo.jpg"));
    expect((await stored())?.logoType).toBe("image/jpeg");
    await call(page.action, multipart("/settings/business", cookie, { ...FIELDS, removeLogo: "on" }));
    expect((await stored())?.logo).toBeNull();
    expect((await getBusinessDetails()).logoUrl).toBeNull();
  });

  it("an oversized or non-image logo is a 400 with the reason under the field; nothing is written", async () => {
    const { cookie } = await loginAs("admin");
    await call(page.action, multipart("/settings/business", cookie, FIELDS, PNG));
    const before = await stored();
    const big = new Uint8Array(LOGO_MAX_BYTES + 1);
    big.set(PNG);
    const cases = [
      [big, "The logo must be at most 200 KB"],
      [new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"), "The logo must be a PNG or JPEG image"],
      [new TextEncoder().encode("GIF89a......"), "The logo must be a PNG or JPEG image"],
    ] as const;
    for (const [bytes, message] of cases) {
      const res = await call(
        page.action,
        multipart("/settings/business", cookie, { ...FIELDS, companyName: "Changed Ltd" }, bytes),
      );
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
      expect(await stored()).toEqual(before);
      const viaApi = await call(api.action, multipart("/api/settings/business", cookie, FIELDS, bytes));
      expect(viaApi.status).toBe(400);
      expect(viaApi.body).toMatchObject({ message });
      expect(await stored()).toEqual(before);
    }
    // A bad e-mail: the field's message, nothing written.
    const res = await call(page.action, multipart("/settings/business", cookie, { ...FIELDS, email: "not-mail" }));
    expect(res.status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it("only admins read or change the details", async () => {
    const { cookie } = await loginAs("manager");
    expect((await call(page.loader, makeRequest("/settings/business", { cookie }))).status).toBe(403);
    expect((await call(api.action, multipart("/api/settings/business", cookie, FIELDS))).status).toBe(403);
    const admin = await loginAs("admin");
    const res = await call(
      api.action,
      makeRequest("/api/settings/business", { method: "PUT", cookie: admin.cookie, json: { companyName: "Via API" } }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ companyName: "Via API", bankName: null });
  });
});

describe("client and agent contact details", () => {
  it("are optional, saved trimmed, and cleared by a blank", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createClientModel(admin, {
      name: "Contact Client",
      address: " 4 Marina\nLagos ",
      email: "buyer@client.test",
      phone: "0801",
      taxNo: "TIN-1",
    });
    expect(client).toMatchObject({ ok: true, client: { address: "4 Marina\nLagos", email: "buyer@client.test" } });
    expect(await createClientModel(admin, { name: "Bad Mail", email: "nope" })).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { email: ["E-mail must be an e-mail address"] },
    });
    const agent = await createAgentModel(admin, {
      name: "Banked Agent",
      phone: "0802",
      bankName: "GTBank",
      bankAccountName: "Banked Agent",
      bankAccountNo: "0123456789",
    });
    if (!agent.ok) throw new Error(agent.message);
    expect(agent.agent).toMatchObject({ phone: "0802", bankName: "GTBank", bankAccountNo: "0123456789" });
    await updateAgent(admin, agent.agent.id, { name: "Banked Agent", bankName: "" });
    const [row] = await (await getDb()).select().from(schema.agents).where(eq(schema.agents.id, agent.agent.id));
    expect(row.bankName).toBeNull();
    expect(row.phone).toBeNull();
  });
});
