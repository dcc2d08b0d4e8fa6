// The truck register (docs/decisions/1200): who reaches it, plates unique however typed, the list
// in plate order a page at a time and searched by the start of a plate through the key's index,
// the JSON calls' answers, and one audit event per change.
import { desc, eq, sql, type SQLWrapper } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import { createTruck, truckPageQuery, updateTruck } from "../../app/models/truck.server";
import * as trucksPage from "../../app/routes/_app.trucks";
import * as truckEdit from "../../app/routes/_app.trucks.$id.edit";
import * as truckNew from "../../app/routes/_app.trucks.new";
import * as apiTrucks from "../../app/routes/api.trucks";
import * as apiTruck from "../../app/routes/api.trucks.$id";
import { describeAccess } from "../access";
import { expectEveryEventWorded } from "../audit-words";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let manager: User;
let firstId: number;

beforeAll(async () => {
  manager = await createUser({ role: "manager" });
  const made = await createTruck(manager, { plate: "ACC 001 AA" });
  if (!made.ok) throw new Error(made.message);
  firstId = made.truck.id;
});

const MANAGERS = ["manager", "admin"] as const;

describeAccess("the truck register: managers and admins only", [
  { name: "list", handler: trucksPage.loader, method: "GET", path: "/trucks", allowed: MANAGERS, page: true },
  { name: "add dialog", handler: truckNew.loader, method: "GET", path: "/trucks/new", allowed: MANAGERS, page: true },
  {
    name: "add",
    handler: truckNew.action,
    method: "POST",
    path: "/trucks/new",
    form: { plate: "ACC 1" },
    allowed: MANAGERS,
    page: true,
  },
  {
    name: "edit dialog",
    handler: truckEdit.loader,
    method: "GET",
    path: "/trucks/1/edit",
    params: { id: "1" },
    allowed: MANAGERS,
    page: true,
  },
  {
    name: "edit",
    handler: truckEdit.action,
    method: "POST",
    path: "/trucks/1/edit",
    params: { id: "1" },
    form: { plate: "ACC 001 AA" },
    allowed: MANAGERS,
    page: true,
  },
  { name: "api list", handler: apiTrucks.loader, method: "GET", path: "/api/trucks?limit=5", allowed: MANAGERS },
  {
    name: "api add",
    handler: apiTrucks.action,
    method: "POST",
    path: "/api/trucks",
    json: { plate: "ACC 2" },
    allowed: MANAGERS,
  },
  {
    name: "api one",
    handler: apiTruck.loader,
    method: "GET",
    path: "/api/trucks/1",
    params: { id: "1" },
    allowed: MANAGERS,
  },
  {
    name: "api edit",
    handler: apiTruck.action,
    method: "PATCH",
    path: "/api/trucks/1",
    params: { id: "1" },
    json: { transporter: "Access Haulage" },
    allowed: MANAGERS,
  },
]);

const api = (cookie: string, method: string, path: string, json?: unknown, params: Record<string, string> = {}) =>
  call(
    method === "GET"
      ? path.startsWith("/api/trucks/")
        ? apiTruck.loader
        : apiTrucks.loader
      : params.id
        ? apiTruck.action
        : apiTrucks.action,
    makeRequest(path, { method, cookie, json }),
    params,
  );

async function truckCount() {
  const db = await getDb();
  return (await db.select({ n: sql<number>`count(*)::int` }).from(schema.trucks))[0].n;
}

async function eventsOf(id: number) {
  const db = await getDb();
  return db
    .select()
    .from(schema.auditEvents)
    .where(sql`${schema.auditEvents.entityType} = 'truck' and ${schema.auditEvents.entityId} = ${String(id)}`)
    .orderBy(desc(schema.auditEvents.id));
}

describe("adding and editing trucks through the JSON calls", () => {
  it("adds a truck with its plate as shown, and answers 201 with it", async () => {
    const { cookie } = await loginAs("manager");
    const made = await api(cookie, "POST", "/api/trucks", {
      plate: "  kja-456-ab ",
      transporter: " Musa Haulage ",
      phone: "0803 000 0001",
      usualTareKg: 12500,
    });
    expect(made.status).toBe(201);
    const truck = made.body as { id: number };
    expect(made.body).toEqual({
      id: truck.id,
      plate: "KJA-456-AB",
      transporter: "Musa Haulage",
      phone: "0803 000 0001",
      usualTareKg: 12500,
    });
    const db = await getDb();
    const [row] = await db.select().from(schema.trucks).where(eq(schema.trucks.id, truck.id));
    expect(row).toMatchObject({ plateKey: "KJA456AB", createdBy: expect.any(String) });
    const [event] = await eventsOf(truck.id);
    expect(event).toMatchObject({ action: "truck.create", after: { plate: "KJA-456-AB", usualTareKg: 12500 } });
  });

  it("refuses a plate already registered however it is typed: 409 naming the truck, nothing written", async () => {
    const { cookie } = await loginAs("admin");
    const first = await api(cookie, "POST", "/api/trucks", { plate: "LAG 123 XY" });
    const id = (first.body as { id: number }).id;
    const before = await truckCount();
    for (const plate of ["lag123xy", "LAG-123-XY", " Lag  123 xy "]) {
      const again = await api(cookie, "POST", "/api/trucks", { plate });
      expect(again, plate).toMatchObject({
        status: 409,
        body: {
          message: "A truck with plate LAG 123 XY is already registered",
          truckId: id,
          errors: { plate: ["A truck with plate LAG 123 XY is already registered"] },
        },
      });
    }
    expect(await truckCount()).toBe(before);
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it("two people adding one plate at once: one truck, the other told which", async () => {
    const [a, b] = await Promise.all([
      createTruck(manager, { plate: "RACE 1" }),
      createTruck(manager, { plate: "race-1" }),
    ]);
    const made = [a, b].filter((r) => r.ok);
    const refused = [a, b].filter((r) => !r.ok);
    expect(made).toHaveLength(1);
    expect(refused).toEqual([expect.objectContaining({ status: 409, truckId: made[0].ok ? made[0].truck.id : 0 })]);
  });

  it("refuses a bad plate or tare with a 400 naming the field, and writes nothing", async () => {
    const { cookie } = await loginAs("manager");
    const before = await truckCount();
    for (const [json, field] of [
      [{}, "plate"],
      [{ plate: "L" }, "plate"],
      [{ plate: "LAG_123" }, "plate"],
      [{ plate: "A".repeat(21) }, "plate"],
      [{ plate: "OK 1", usualTareKg: 0 }, "usualTareKg"],
      [{ plate: "OK 1", usualTareKg: 200001 }, "usualTareKg"],
      [{ plate: "OK 1", usualTareKg: "12.5" }, "usualTareKg"],
      [{ plate: "OK 1", transporter: "x".repeat(201) }, "transporter"],
      [{ plate: "OK 1", phone: 5 }, "phone"],
    ] as const) {
      const refused = await api(cookie, "POST", "/api/trucks", json);
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(Object.keys((refused.body as { errors: object }).errors), JSON.stringify(json)).toEqual([field]);
    }
    expect(await truckCount()).toBe(before);
  });

  it("PATCH changes the fields it sends, clears with null, refuses another truck's plate", async () => {
    const { cookie } = await loginAs("manager");
    const made = await api(cookie, "POST", "/api/trucks", { plate: "EDT 1", transporter: "Old", usualTareKg: 9000 });
    const id = String((made.body as { id: number }).id);
    const patched = await api(
      cookie,
      "PATCH",
      `/api/trucks/${id}`,
      { transporter: "New Haulage", usualTareKg: null },
      { id },
    );
    expect(patched).toMatchObject({
      status: 200,
      body: { plate: "EDT 1", transporter: "New Haulage", phone: null, usualTareKg: null },
    });
    const renamed = await api(cookie, "PATCH", `/api/trucks/${id}`, { plate: "edt-2" }, { id });
    expect(renamed.body).toMatchObject({ plate: "EDT-2", transporter: "New Haulage" });
    // Its own plate typed another way is no duplicate.
    expect((await api(cookie, "PATCH", `/api/trucks/${id}`, { plate: "EDT 2" }, { id })).status).toBe(200);
    const taken = await api(cookie, "PATCH", `/api/trucks/${id}`, { plate: "acc001aa" }, { id });
    expect(taken).toMatchObject({ status: 409, body: { truckId: firstId } });
    expect(await api(cookie, "PATCH", "/api/trucks/999999", { plate: "NO 1" }, { id: "999999" })).toMatchObject({
      status: 404,
    });
    expect(await api(cookie, "GET", `/api/trucks/${id}`, undefined, { id })).toMatchObject({
      status: 200,
      body: { plate: "EDT 2", transporter: "New Haulage" },
    });
    const events = await eventsOf(Number(id));
    expect(events.map((e) => e.action)).toEqual(["truck.update", "truck.update", "truck.update", "truck.create"]);
    expect(events[2]).toMatchObject({
      before: { transporter: "Old", usualTareKg: 9000 },
      after: { usualTareKg: null },
    });
  });

  it("an edit that changes nothing writes nothing", async () => {
    const made = await createTruck(manager, { plate: "SAME 1", phone: "080" });
    if (!made.ok) throw new Error(made.message);
    expect(await updateTruck(manager, made.truck.id, { plate: " same  1", phone: "080" })).toMatchObject({ ok: true });
    expect(await eventsOf(made.truck.id)).toHaveLength(1);
  });
});

describe("the Add and Edit Truck dialogs", () => {
  const post = (
    handler: typeof truckNew.action,
    path: string,
    cookie: string,
    form: Record<string, string>,
    id?: string,
  ) => call(handler, makeRequest(path, { method: "POST", cookie, form }), id ? { id } : {});

  it("adds a truck and returns to the list it was opened from", async () => {
    const { cookie } = await loginAs("manager");
    const added = await post(truckNew.action, "/trucks/new?q=FRM", cookie, {
      plate: "frm 10 ab",
      transporter: "",
      phone: "",
      usualTareKg: "15,000",
    });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/trucks?q=FRM");
    const db = await getDb();
    const [row] = await db.select().from(schema.trucks).where(eq(schema.trucks.plateKey, "FRM10AB"));
    expect(row).toMatchObject({ plate: "FRM 10 AB", transporter: null, phone: null, usualTareKg: 15000 });
  });

  it("says a duplicate plate under the plate field and writes nothing", async () => {
    const { cookie } = await loginAs("manager");
    const before = await truckCount();
    const refused = await post(truckNew.action, "/trucks/new", cookie, { plate: "ACC-001-AA" });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('"plate":["A truck with plate ACC 001 AA is already registered"]');
    expect(await truckCount()).toBe(before);
    const invalid = await post(truckNew.action, "/trucks/new", cookie, { plate: "ACC#1" });
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.body)).toContain('"plate":["Plate must be 2 to 20 letters');
  });

  it("edits a truck: a blank box clears its field", async () => {
    const { cookie } = await loginAs("admin");
    const made = await createTruck(manager, { plate: "FRM 11", transporter: "T", phone: "1", usualTareKg: 100 });
    if (!made.ok) throw new Error(made.message);
    const id = String(made.truck.id);
    const form = await call(truckEdit.loader, makeRequest(`/trucks/${id}/edit`, { cookie }), { id });
    expect(form.body).toMatchObject({ truck: { plate: "FRM 11", transporter: "T", phone: "1", usualTareKg: 100 } });
    const saved = await post(
      truckEdit.action,
      `/trucks/${id}/edit?cursor=FRM`,
      cookie,
      {
        plate: "FRM 12",
        transporter: "",
        phone: "",
        usualTareKg: "",
      },
      id,
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/trucks?cursor=FRM");
    const db = await getDb();
    const [row] = await db.select().from(schema.trucks).where(eq(schema.trucks.id, made.truck.id));
    expect(row).toMatchObject({
      plate: "FRM 12",
      plateKey: "FRM12",
      transporter: null,
      phone: null,
      usualTareKg: null,
    });
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
    const missing = await call(truckEdit.loader, makeRequest("/trucks/999999/edit", { cookie }), { id: "999999" });
    expect(missing.status).toBe(404);
  });
});

describe("the list: plate order, pages, search by the start of a plate", () => {
  type ListData = { trucks: { plate: string }[]; nextCursor: string | null; previousCursor: string | null };
  let cookie: string;

  beforeAll(async () => {
    cookie = (await loginAs("manager")).cookie;
    const db = await getDb();
    // 120 trucks PG-000 .. PG-119, inserted out of order.
    await db.insert(schema.trucks).values(
      Array.from({ length: 120 }, (_, i) => {
        const n = String((i * 7) % 120).padStart(3, "0");
        return { plate: `PG-${n}`, plateKey: `PG${n}`, createdBy: manager.id, usualTareKg: 1000 + i };
      }),
    );
  });

  const page = async (query: string) => {
    const result = await call(trucksPage.loader, makeRequest(`/trucks${query}`, { cookie }));
    expect(result.status).toBe(200);
    return result.body as ListData;
  };

  it("pages 50 at a time in plate order, forwards and back", async () => {
    const first = await page("?q=pg");
    expect(first.trucks.map((t) => t.plate)).toEqual(
      Array.from({ length: 50 }, (_, i) => `PG-${String(i).padStart(3, "0")}`),
    );
    expect(first.previousCursor).toBeNull();
    expect(first.nextCursor).toBe("PG049");
    const second = await page(`?q=pg&cursor=${first.nextCursor}`);
    expect(second.trucks[0].plate).toBe("PG-050");
    expect(second.previousCursor).toBe("PG050");
    const third = await page(`?q=pg&cursor=${second.nextCursor}`);
    expect(third.trucks.map((t) => t.plate)).toHaveLength(20);
    expect(third.nextCursor).toBeNull();
    const back = await page(`?q=pg&before=${third.previousCursor}`);
    expect(back.trucks.map((t) => t.plate)).toEqual(second.trucks.map((t) => t.plate));
    const toFirst = await page(`?q=pg&before=${second.previousCursor}`);
    expect(toFirst.trucks.map((t) => t.plate)).toEqual(first.trucks.map((t) => t.plate));
    expect(toFirst.previousCursor).toBeNull();
  });

  it("finds plates by their start, spaces, dashes and case aside; a cursor not of ours shows the first page", async () => {
    expect((await page("?q=pg-11")).trucks.map((t) => t.plate)).toEqual(
      Array.from({ length: 10 }, (_, i) => `PG-11${i}`),
    );
    expect((await page("?q=P%20G%201%201%209")).trucks.map((t) => t.plate)).toEqual(["PG-119"]);
    expect((await page("?q=G11")).trucks).toEqual([]);
    expect((await page("?q=%25")).trucks).toEqual([]);
    expect((await page("?cursor=not%20ours")).previousCursor).toBeNull();
  });

  it("GET /api/trucks: a page and its next cursor, the whole list streamed without a limit", async () => {
    const first = await call(apiTrucks.loader, makeRequest("/api/trucks?limit=30&q=pg", { cookie }));
    expect(first.status).toBe(200);
    expect((first.body as { plate: string }[]).map((t) => t.plate).slice(0, 2)).toEqual(["PG-000", "PG-001"]);
    expect(first.body as object[]).toHaveLength(30);
    expect(Object.keys((first.body as object[])[0]).sort()).toEqual([
      "id",
      "phone",
      "plate",
      "transporter",
      "usualTareKg",
    ]);
    expect(first.headers.get("X-Next-Cursor")).toBe("PG029");
    expect(first.headers.get("Link")).toBe('</api/trucks?limit=30&q=pg&cursor=PG029>; rel="next"');
    const last = await call(apiTrucks.loader, makeRequest("/api/trucks?limit=30&q=pg&cursor=PG089", { cookie }));
    expect((last.body as { plate: string }[]).map((t) => t.plate)).toEqual(
      Array.from({ length: 30 }, (_, i) => `PG-${String(90 + i).padStart(3, "0")}`),
    );
    expect(last.headers.get("X-Next-Cursor")).toBeNull();
    const all = await call(apiTrucks.loader, makeRequest("/api/trucks?q=pg", { cookie }));
    expect(all.body as object[]).toHaveLength(120);
    for (const bad of ["limit=0", "limit=501", "limit=x", "limit=5&cursor=pg%2F1"]) {
      expect((await call(apiTrucks.loader, makeRequest(`/api/trucks?${bad}`, { cookie }))).status, bad).toBe(400);
    }
  });

  it("reads a searched page through the plate key's index, not the table", async () => {
    const db = await getDb();
    await db.insert(schema.trucks).values(
      Array.from({ length: 3000 }, (_, i) => {
        const key = `ZZ${String(i).padStart(5, "0")}`;
        return { plate: key, plateKey: key, createdBy: manager.id };
      }),
    );
    await db.execute(sql`analyze trucks`);
    const plan = async (query: SQLWrapper) => {
      const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (analyze, format json) ${query}`));
      return JSON.stringify(Object.values(row)[0]);
    };
    const searched = await plan(truckPageQuery(db, "ZZ0012", { search: "zz0012", after: null, direction: "next" }, 50));
    expect(searched).toContain("trucks_plate_key_unique");
    expect(searched).not.toContain('"Seq Scan"');
    const deep = await plan(truckPageQuery(db, null, { search: null, after: "ZZ02000", direction: "next" }, 50));
    expect(deep).toContain("trucks_plate_key_unique");
    expect(deep).not.toContain('"Seq Scan"');
  });
});

it("every event these tests wrote reads in words", async () => {
  await expectEveryEventWorded();
});
