import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../app/utils/cookies.server";
import { createSession, deleteExpiredSessions, readSession } from "../../app/utils/session.server";
import { createUser } from "../factories";

const HOUR_MS = 60 * 60 * 1000;

async function newSession(now: Date) {
  const user = await createUser();
  const { sid, cookie } = await createSession(new Request("http://localhost/"), user.id, {}, now);
  const request = new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } });
  return { sid, request };
}

describe("session lifetime", () => {
  it("names its durations right", () => {
    expect(SESSION_IDLE_MS).toBe(8 * HOUR_MS);
    expect(SESSION_ABSOLUTE_MS).toBe(12 * HOUR_MS);
  });

  it("ends after 8 hours idle", async () => {
    const start = new Date("2026-06-01T08:00:00Z");
    const { request, sid } = await newSession(start);
    expect(await readSession(request, new Date(start.getTime() + 7.9 * HOUR_MS))).not.toBeNull();
    // Used at 7.9 h, so idle until 15.9 h; but at 8 h past that last use it is gone.
    const { request: other } = await newSession(start);
    expect(await readSession(other, new Date(start.getTime() + 8 * HOUR_MS + 1000))).toBeNull();
    const db = await getDb();
    expect(await db.select().from(schema.sessions).where(eq(schema.sessions.sid, sid))).toHaveLength(1);
  });

  it("ends after 12 hours in all, however busy", async () => {
    const start = new Date("2026-06-01T08:00:00Z");
    const { request } = await newSession(start);
    for (let h = 2; h <= 11; h += 2) {
      expect(await readSession(request, new Date(start.getTime() + h * HOUR_MS)), `at ${h} h`).not.toBeNull();
    }
    expect(await readSession(request, new Date(start.getTime() + 12 * HOUR_MS))).toBeNull();
  });

  it("cleans up expired rows", async () => {
    const start = new Date("2026-06-01T08:00:00Z");
    const { sid } = await newSession(start);
    await deleteExpiredSessions(new Date(start.getTime() + 13 * HOUR_MS));
    const db = await getDb();
    expect(await db.select().from(schema.sessions).where(eq(schema.sessions.sid, sid))).toHaveLength(0);
  });

  it("refuses a forged cookie", async () => {
    const request = new Request("http://localhost/", { headers: { Cookie: "__session=forged-session-id" } });
    expect(await readSession(request)).toBeNull();
  });
});
