import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, getDriver, schema } from "../../app/db.server";
import { ensureFirstAdmin, getUserByEmail, verifyPassword } from "../../app/models/user.server";
import { createUser } from "../factories";

describe("schema and first admin", () => {
  it("migrates every table of the spec", async () => {
    const db = await getDb();
    const result = await db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { table_name: string }[];
    const names = rows.map((r) => r.table_name);
    for (const table of [
      "users",
      "sessions",
      "agents",
      "clients",
      "deliveries",
      "invoices",
      "payments",
      "settings",
      "passkeys",
      "idempotency_keys",
    ]) {
      expect(names).toContain(table);
    }
    expect(["pglite", "postgres"]).toContain(await getDriver());
  });

  it("creates the first admin from the environment on an empty database, once", async () => {
    const logs: string[] = [];
    const first = await ensureFirstAdmin({
      email: "Boss@Example.com",
      password: "first-pass-123",
      log: (m) => logs.push(m),
    });
    expect(first).toEqual({ created: true, email: "Boss@Example.com", temporaryPassword: undefined });
    const admin = await getUserByEmail("boss@example.com");
    expect(admin?.role).toBe("admin");
    expect(admin?.mustChangePassword).toBe(1);
    expect((await verifyPassword("BOSS@example.com", "first-pass-123")).ok).toBe(true);
    // In the trail like every user created, with no actor: nobody was signed in.
    const db = await getDb();
    const [event] = await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.entityId, admin!.id));
    expect(event).toMatchObject({ action: "user.create", actorId: null, entityType: "user" });
    expect(event.after).toMatchObject({ email: "boss@example.com", role: "admin" });
    expect(JSON.stringify(event.after)).not.toContain("first-pass-123");
    expect(await ensureFirstAdmin({ email: "other@example.com", password: "x" })).toEqual({ created: false });
  });
});

describe("password check", () => {
  it("refuses frozen and deleted users even with the right password", async () => {
    const frozen = await createUser({ status: "frozen" });
    const deleted = await createUser({ status: "deleted" });
    expect(await verifyPassword(frozen.email, frozen.plainPassword)).toMatchObject({ ok: false, reason: "inactive" });
    expect(await verifyPassword(deleted.email, deleted.plainPassword)).toMatchObject({ ok: false, reason: "inactive" });
    expect(await verifyPassword(frozen.email, "wrong")).toMatchObject({ ok: false, reason: "invalid" });
  });
});
