// The audit trail's own guarantees (docs/decisions/0900): an event commits with its change or
// not at all, the table refuses UPDATE, DELETE and TRUNCATE on both drivers, the actor's e-mail
// is a snapshot, the request context is kept, and the trail reads in keyset pages by filter.
import { desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import {
  changedFields,
  listAuditEvents,
  parseAuditFilters,
  recordAudit,
  withAuditContext,
} from "../../app/models/audit.server";
import { dayIn } from "../../app/utils/dates";
import { readPageRequest } from "../../app/utils/params";
import { createUser } from "../factories";
import { statementOutcome } from "../money-entries";

let admin: User;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
});

async function count() {
  const db = await getDb();
  return (await db.select({ n: sql<number>`count(*)::int` }).from(schema.auditEvents))[0].n;
}

async function last() {
  const db = await getDb();
  const [row] = await db.select().from(schema.auditEvents).orderBy(desc(schema.auditEvents.id)).limit(1);
  return row;
}

describe("recordAudit", () => {
  it("commits with the change and keeps the actor's e-mail, the money as exact strings and the request context", async () => {
    const db = await getDb();
    await withAuditContext({ requestId: "req-1", clientAddress: "203.0.113.9" }, () =>
      db.transaction((tx) =>
        recordAudit(tx, {
          actor: { id: admin.id },
          action: "settings.update",
          entityType: "settings",
          entityId: 1,
          before: { sellingRate: "65000.00", updatedAt: new Date("2026-01-02T03:04:05Z"), password: "x" },
          after: { sellingRate: "70000.10", updatedAt: new Date("2026-01-03T03:04:05Z") },
        }),
      ),
    );
    const row = await last();
    expect(row).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      action: "settings.update",
      entityType: "settings",
      entityId: "1",
      before: { sellingRate: "65000.00", updatedAt: "2026-01-02T03:04:05.000Z" },
      after: { sellingRate: "70000.10" },
      requestId: "req-1",
      clientAddress: "203.0.113.9",
    });
    expect(row.before).not.toHaveProperty("password");
    expect(row.time).toBeInstanceOf(Date);
  });

  it("a rolled-back transaction leaves no event", async () => {
    const db = await getDb();
    const before = await count();
    await expect(
      db.transaction(async (tx) => {
        await recordAudit(tx, { actor: null, action: "auth.sign_in_failed", entityType: "user", entityId: null });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await count()).toBe(before);
  });
});

describe("audit_events is append-only", () => {
  it("refuses UPDATE, DELETE and TRUNCATE, and keeps the rows", async () => {
    const db = await getDb();
    await db.transaction((tx) =>
      recordAudit(tx, { actor: { id: admin.id }, action: "agent.create", entityType: "agent", entityId: 1 }),
    );
    const before = await count();
    const row = await last();
    expect(await statementOutcome(`update audit_events set action = 'x' where id = ${row.id}`)).toMatch(/append-only/);
    expect(await statementOutcome(`update audit_events set after = '{}'`)).toMatch(/append-only/);
    expect(await statementOutcome(`delete from audit_events where id = ${row.id}`)).toMatch(/append-only/);
    expect(await statementOutcome(`delete from audit_events`)).toMatch(/append-only/);
    expect(await statementOutcome(`truncate audit_events`)).toMatch(/append-only/);
    expect(await count()).toBe(before);
    expect((await last()).action).toBe("agent.create");
  });
});

describe("reading the trail", () => {
  it("filters by entity, actor (id or e-mail), action and business day, newest first, in keyset pages", async () => {
    const db = await getDb();
    const other = await createUser({ role: "manager" });
    for (let i = 0; i < 5; i++) {
      await db.transaction((tx) =>
        recordAudit(tx, {
          actor: { id: other.id },
          action: "client.update",
          entityType: "client",
          entityId: 900,
          before: { name: `Name ${i}` },
          after: { name: `Name ${i + 1}` },
        }),
      );
    }
    const byEntity = await listAuditEvents(admin, { entityType: "client", entityId: "900" }, { limit: 2 });
    expect(byEntity.events.map((e) => e.after?.name)).toEqual(["Name 5", "Name 4"]);
    expect(byEntity.newerCursor).toBeNull();
    expect(byEntity.olderCursor).not.toBeNull();
    const second = await listAuditEvents(
      admin,
      { entityType: "client", entityId: "900" },
      { limit: 2, page: readPageRequest(new URLSearchParams({ cursor: byEntity.olderCursor! }), "id") },
    );
    expect(second.events.map((e) => e.after?.name)).toEqual(["Name 3", "Name 2"]);
    const back = await listAuditEvents(
      admin,
      { entityType: "client", entityId: "900" },
      { limit: 2, page: readPageRequest(new URLSearchParams({ before: second.newerCursor! }), "id") },
    );
    expect(back.events.map((e) => e.after?.name)).toEqual(["Name 5", "Name 4"]);

    expect((await listAuditEvents(admin, { actor: other.email.toUpperCase() })).events).toHaveLength(5);
    expect((await listAuditEvents(admin, { actor: other.id })).events).toHaveLength(5);
    expect((await listAuditEvents(admin, { action: "client.update", actor: admin.email })).events).toHaveLength(0);
    expect(byEntity.events[0].changes).toEqual([{ field: "name", before: "Name 4", after: "Name 5" }]);

    // The day, in APP_TIME_ZONE, of the time the database stamped on the events.
    const today = dayIn("Africa/Lagos", (await last()).time);
    expect((await listAuditEvents(admin, { actor: other.id, from: today, to: today })).events).toHaveLength(5);
    expect((await listAuditEvents(admin, { actor: other.id, to: "2000-01-01" })).events).toHaveLength(0);
  });

  it("reads query-string filters and names the first one refused", () => {
    expect(parseAuditFilters(new URLSearchParams("entity=delivery&entityId=4&action=delivery.update"))).toEqual({
      filters: { entityType: "delivery", entityId: "4", action: "delivery.update" },
      invalid: null,
    });
    expect(parseAuditFilters(new URLSearchParams("entity=spaceship")).invalid).toBe("entity");
    expect(parseAuditFilters(new URLSearchParams("from=2026-02-30")).invalid).toBe("from");
    expect(parseAuditFilters(new URLSearchParams("action=drop.table")).invalid).toBe("action");
  });

  it("shows what changed: fields that differ, all fields of a create or a delete", () => {
    expect(changedFields({ a: "1", b: "2", updatedAt: "x" }, { a: "1", b: "3", updatedAt: "y" })).toEqual([
      { field: "b", before: "2", after: "3" },
    ]);
    expect(changedFields(null, { a: "1", b: null })).toEqual([{ field: "a", before: null, after: "1" }]);
    expect(changedFields({ a: "1" }, null)).toEqual([{ field: "a", before: "1", after: null }]);
  });
});

describe("the actor e-mail is a snapshot", () => {
  it("keeps the e-mail the actor had when the event was written", async () => {
    const db = await getDb();
    const user = await createUser({ role: "admin" });
    await db.transaction((tx) =>
      recordAudit(tx, { actor: { id: user.id }, action: "agent.create", entityType: "agent", entityId: 2 }),
    );
    await db
      .update(schema.users)
      .set({ email: `renamed-${user.email}` })
      .where(eq(schema.users.id, user.id));
    expect((await last()).actorEmail).toBe(user.email);
  });
});
