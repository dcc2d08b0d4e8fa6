// A phone's outbox sends each delivery with the id of the person who recorded it; under anyone
// else's session the server refuses it, and the entry waits for its own person
// (docs/decisions/1100-offline-capture.md). The server keeps delivery keys longer than the
// outbox sends an entry blind.
import { desc, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import * as api from "../../app/routes/api.deliveries";
import { deleteOldKeys, IDEMPOTENCY_TTL_MS, PRUNE_BATCH } from "../../app/utils/idempotency.server";
import { ENTRY_MAX_AGE_MS } from "../../app/utils/outbox";
import { OTHER_USER_MESSAGE, OUTBOX_USER_HEADER, PASSWORD_CHANGE_MESSAGE } from "../../app/utils/outbox-protocol";
import { createAgent, createClient, loginAs } from "../factories";
import { call, makeRequest } from "../http";

const DAY_MS = 24 * 60 * 60 * 1000;
let agentId: number;

beforeAll(async () => {
  process.env.DELIVERY_CLIENT_NAME = "Kodan";
  const { resetEnv } = await import("../../app/utils/env.server");
  resetEnv();
  agentId = (await createAgent({ name: "Musa Ibrahim" })).id;
  await createClient({ name: "KODAN" });
});

const post = (cookie: string, location: string, key: string, headers: Record<string, string> = {}) =>
  call(
    api.action,
    makeRequest("/api/deliveries", {
      method: "POST",
      cookie,
      json: { agentId, tons: "3.50", location, date: "2026-03-02" },
      headers: { "Idempotency-Key": key, ...headers },
    }),
  );

async function recorded(location: string) {
  const db = await getDb();
  return db.select().from(schema.deliveries).where(eq(schema.deliveries.location, location));
}

async function keyRow(key: string) {
  const db = await getDb();
  return db.select().from(schema.idempotencyKeys).where(eq(schema.idempotencyKeys.key, key));
}

describe("POST /api/deliveries from a phone's outbox", () => {
  it("refuses an entry of someone else with 401, records nothing and claims no key; its own person then sends it once", async () => {
    const a = await loginAs("staff");
    const b = await loginAs("staff");
    const refused = await post(b.cookie, "Outbox A", "outbox-a-1", { [OUTBOX_USER_HEADER]: a.user.id });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: OTHER_USER_MESSAGE });
    expect(await recorded("Outbox A")).toHaveLength(0);
    expect(await keyRow("outbox-a-1")).toHaveLength(0);

    const sent = await post(a.cookie, "Outbox A", "outbox-a-1", { [OUTBOX_USER_HEADER]: a.user.id });
    expect(sent.status).toBe(201);
    const again = await post(a.cookie, "Outbox A", "outbox-a-1", { [OUTBOX_USER_HEADER]: a.user.id });
    expect(again.status).toBe(200);
    const rows = await recorded("Outbox A");
    expect(rows).toHaveLength(1);
    expect(rows[0].createdBy).toBe(a.user.id);
  });

  it("takes an entry under its own person's session, and a call without the header as before", async () => {
    const a = await loginAs("staff");
    expect((await post(a.cookie, "Outbox own", "outbox-own-1", { [OUTBOX_USER_HEADER]: a.user.id })).status).toBe(201);
    expect((await post(a.cookie, "Outbox plain", "outbox-plain-1")).status).toBe(201);
    expect(await recorded("Outbox own")).toHaveLength(1);
    expect(await recorded("Outbox plain")).toHaveLength(1);
  });

  it("answers a person whose password must change with the 403 the outbox waits on", async () => {
    const a = await loginAs("staff", { mustChangePassword: true });
    const res = await post(a.cookie, "Outbox password", "outbox-pw-1", { [OUTBOX_USER_HEADER]: a.user.id });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: PASSWORD_CHANGE_MESSAGE });
    expect(await recorded("Outbox password")).toHaveLength(0);
  });
});

describe("how long a delivery's key is kept", () => {
  it("is 90 days, comfortably longer than the 80 days an outbox entry is sent blind", () => {
    expect(IDEMPOTENCY_TTL_MS).toBe(90 * DAY_MS);
    expect(ENTRY_MAX_AGE_MS).toBe(80 * DAY_MS);
    expect(IDEMPOTENCY_TTL_MS - ENTRY_MAX_AGE_MS).toBeGreaterThanOrEqual(10 * DAY_MS);
  });

  it("an entry whose answer was lost 89 days ago still replays; after 90 days the key is pruned", async () => {
    const a = await loginAs("staff");
    expect((await post(a.cookie, "Outbox late", "outbox-late-1")).status).toBe(201);
    const db = await getDb();
    await db.execute(
      sql`update idempotency_keys set created_at = now() - interval '89 days' where key = 'outbox-late-1'`,
    );
    await db.transaction((tx) => deleteOldKeys(tx));
    expect((await post(a.cookie, "Outbox late", "outbox-late-1")).status).toBe(200);
    expect(await recorded("Outbox late")).toHaveLength(1);

    await db.execute(
      sql`update idempotency_keys set created_at = now() - interval '91 days' where key = 'outbox-late-1'`,
    );
    await db.transaction((tx) => deleteOldKeys(tx));
    expect(await keyRow("outbox-late-1")).toHaveLength(0);
  });

  it("prunes at most PRUNE_BATCH keys at a time, oldest first", async () => {
    const a = await loginAs("staff");
    const db = await getDb();
    const extra = 3;
    await db.execute(sql`
      insert into idempotency_keys (user_id, key, scope, request_hash, created_at)
      select ${a.user.id}::uuid, 'prune-' || n, 'delivery.create', 'h', now() - interval '100 days' - n * interval '1 minute'
      from generate_series(1, ${PRUNE_BATCH + extra}) as n`);
    const left = async () =>
      (
        await db
          .select({ key: schema.idempotencyKeys.key })
          .from(schema.idempotencyKeys)
          .where(like(schema.idempotencyKeys.key, "prune-%"))
          .orderBy(desc(schema.idempotencyKeys.createdAt))
      ).map((r) => r.key);
    await db.transaction((tx) => deleteOldKeys(tx));
    // The newest of them stay for the next prune.
    expect(await left()).toEqual(["prune-1", "prune-2", "prune-3"]);
    await db.transaction((tx) => deleteOldKeys(tx));
    expect(await left()).toEqual([]);
  });
});
