// The hourly sweep (app/models/housekeeping.server.ts, decisions 0003 and 0600): expired sessions
// and throttle counters whose window has passed go; live ones stay.
import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { runHousekeeping } from "../../app/models/housekeeping.server";
import { createSession } from "../../app/utils/session.server";
import { THROTTLE_WINDOW_MS } from "../../app/utils/throttle.server";
import { createUser } from "../factories";

describe("housekeeping", () => {
  it("drops throttle counters past their window and expired sessions, keeping live ones", async () => {
    const db = await getDb();
    const now = new Date("2026-07-01T12:00:00Z");
    const at = (msAgo: number) => new Date(now.getTime() - msAgo);
    const keys = ["hk:old", "hk:edge", "hk:live"];
    await db.insert(schema.authThrottle).values([
      { key: "hk:old", count: 3, windowStart: at(THROTTLE_WINDOW_MS + 60_000) },
      { key: "hk:edge", count: 3, windowStart: at(THROTTLE_WINDOW_MS) },
      { key: "hk:live", count: 3, windowStart: at(60_000) },
    ]);
    const user = await createUser();
    const request = new Request("http://localhost/");
    // The fresh one first: creating a session sweeps those expired at its own time.
    const { sid: fresh } = await createSession(request, user.id, {}, at(60_000));
    const { sid: stale } = await createSession(request, user.id, {}, at(13 * 60 * 60 * 1000));

    await runHousekeeping(now);

    const left = await db
      .select({ key: schema.authThrottle.key })
      .from(schema.authThrottle)
      .where(inArray(schema.authThrottle.key, keys));
    expect(left.map((r) => r.key).sort()).toEqual(["hk:edge", "hk:live"]);
    const sessions = await db
      .select({ sid: schema.sessions.sid })
      .from(schema.sessions)
      .where(inArray(schema.sessions.sid, [stale, fresh]));
    expect(sessions.map((s) => s.sid)).toEqual([fresh]);
  });
});
