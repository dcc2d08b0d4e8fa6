// The audit trail in plain words (docs/decisions/0900): a delivery's history names its agent and
// the people who changed it, even after the agent is deleted; a page's names are read in one batch
// per kind, never per event; times are in APP_TIME_ZONE; a date filter means days there.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import * as agents from "../../app/models/agent.server";
import { listAuditEvents, withAuditContext } from "../../app/models/audit.server";
import * as deliveries from "../../app/services/deliveries/create-delivery.server";
import * as deliveryChanges from "../../app/models/delivery-changes.server";
import { deleteUserByAdmin } from "../../app/models/admin-users.server";
import { databaseNames, presentAuditEvents, type NameSource } from "../../app/presenters/audit-events.server";
import { expectEveryEventWorded } from "../audit-words";
import { createClient, createUser } from "../factories";

let admin: User;
let manager: User;
let clientId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin", firstName: "Ade", lastName: "Admin" });
  manager = await createUser({ role: "manager", firstName: "Ngozi", lastName: "Okafor" });
  clientId = (await createClient()).id;
});

async function newAgent(name: string) {
  const created = await agents.createAgent(admin, { name });
  if (!created.ok) throw new Error(JSON.stringify(created));
  return created.agent;
}

describe("a delivery's history in words", () => {
  it("names the agents and the people, in Lagos time, after the old agent and the editor are gone", async () => {
    const aisha = await newAgent(`Aisha Bello ${Date.now()}`);
    const gone = await newAgent(`Old Agent ${Date.now()}`);
    const created = await withAuditContext({ requestId: "r1", clientAddress: "::ffff:127.0.0.1" }, () =>
      deliveries.createDelivery(manager, {
        date: "2026-03-02",
        agentId: gone.id,
        clientId,
        tons: "12.5",
        location: "Yard A",
      }),
    );
    if (!created.ok) throw new Error(created.message);
    const id = created.delivery.id;
    const changed = await deliveryChanges.updateDelivery(manager, id, { otherCosts: "5000", agentId: aisha.id });
    expect(changed).toMatchObject({ ok: true });
    // The old agent has no deliveries left: it can be deleted; the editor is deleted too.
    expect(await agents.deleteAgent(admin, gone.id)).toEqual({ ok: true });
    expect((await deleteUserByAdmin(admin, manager.id)).ok).toBe(true);

    const { events } = await listAuditEvents(admin, { entityType: "delivery", entityId: String(id) });
    const [update, create] = await presentAuditEvents(events);
    expect(update).toMatchObject({ title: "Delivery updated", subject: `Delivery #${id}`, actor: "Ngozi Okafor" });
    expect(update.changes).toEqual(
      expect.arrayContaining([
        { field: "Other costs", before: null, after: "₦5,000.00" },
        { field: "Agent", before: gone.name, after: aisha.name },
      ]),
    );
    expect(create).toMatchObject({ title: "Delivery recorded", actor: "Ngozi Okafor", from: "127.0.0.1" });
    expect(create.changes).toEqual(expect.arrayContaining([{ field: "Agent", before: null, after: gone.name }]));
    expect(create.changes).toEqual(
      expect.arrayContaining([{ field: "Entered by", before: null, after: "Ngozi Okafor" }]),
    );
    expect(create.changes.map((c) => c.field)).not.toContain("ID");
    // The event's time, read in Lagos: an hour ahead of UTC, named WAT.
    const [row] = await (
      await getDb()
    )
      .select({ time: schema.auditEvents.time })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.id, create.id));
    const lagos = new Date(row.time.getTime() + 60 * 60 * 1000).toISOString();
    expect(create.when).toMatch(new RegExp(` ${lagos.slice(11, 16)} WAT$`));
  });

  it("reads the names of a page once per kind, whatever the number of events", async () => {
    const many = [];
    for (let i = 0; i < 12; i++) many.push(await newAgent(`Batch Agent ${i} ${Date.now()}`));
    const calls: Record<string, number> = {};
    const counted = Object.fromEntries(
      Object.entries(databaseNames).map(([kind, read]) => [
        kind,
        (...args: unknown[]) => {
          calls[kind] = (calls[kind] ?? 0) + 1;
          return (read as (...a: unknown[]) => unknown)(...args);
        },
      ]),
    ) as NameSource;
    for (const agent of many) {
      const made = await deliveries.createDelivery(admin, {
        agentId: agent.id,
        clientId,
        tons: "1",
        location: "Yard B",
      });
      if (!made.ok) throw new Error(made.message);
    }
    const { events } = await listAuditEvents(admin, { action: "delivery.create" }, { limit: 12 });
    const lines = await presentAuditEvents(events, { source: counted });
    expect(lines).toHaveLength(12);
    expect(new Set(lines.flatMap((l) => l.changes.filter((c) => c.field === "Agent").map((c) => c.after)))).toEqual(
      new Set(many.map((a) => a.name)),
    );
    expect(Math.max(...Object.values(calls))).toBe(1);
  });
});

describe("dates of the trail are business days", () => {
  it("an event at 23:30 UTC belongs to the next Lagos day", async () => {
    // Ids and times grow together (decision 0900): the event is the newest by both, written last.
    const db = await getDb();
    const [late] = await db
      .insert(schema.auditEvents)
      .values({
        time: new Date("2099-01-09T23:30:00Z"),
        actorId: admin.id,
        actorEmail: admin.email,
        action: "settings.update",
        entityType: "settings",
        entityId: "1",
        before: { taxRate: "1.00" },
        after: { taxRate: "2.00" },
      })
      .returning();
    const ids = async (day: string) =>
      (await listAuditEvents(admin, { from: day, to: day, action: "settings.update" })).events.map((e) => e.id);
    expect(await ids("2099-01-10")).toEqual([late.id]);
    expect(await ids("2099-01-09")).toEqual([]);
    const [line] = await presentAuditEvents(
      (await listAuditEvents(admin, { from: "2099-01-10", to: "2099-01-10" })).events,
    );
    expect(line.when).toBe("Jan 10, 2099 00:30 WAT");
  });
});

it("every event these tests wrote reads in words", async () => {
  await expectEveryEventWorded();
});
