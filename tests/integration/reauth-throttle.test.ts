// Decision 0600: a password asked again while signed in (Change
// Password's current password, turning two-factor off, confirming a factor change) is counted
// like a sign-in attempt, on the same counters, so an open session cannot guess its owner's
// password without limit, and locks nobody out of signing in more than wrong sign-ins would.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { listUsers } from "../../app/models/admin-users.server";
import { getUserById, verifyPassword } from "../../app/models/user.server";
import * as unlockApi from "../../app/routes/api.admin.users.$id.unlock";
import * as changeApi from "../../app/routes/api.auth.password.change";
import * as loginApi from "../../app/routes/api.auth.password.login";
import * as registerOptionsApi from "../../app/routes/api.passkeys.register.options";
import * as passwordPage from "../../app/routes/_app.settings.password";
import * as disablePage from "../../app/routes/_app.settings.two-factor_.disable";
import { THROTTLE_MAX_FAILURES } from "../../app/utils/throttle.server";
import { guardHandler } from "../../app/utils/unavailable.server";
import { loginAs } from "../factories";
import { call, makeRequest } from "../http";

/** Who reads the user list in these checks: an admin (the list is user.manage). */
const READER = { id: "00000000-0000-4000-8000-000000000000", role: "admin" } as const;
const LOCKED = /^Too many failed attempts\. Please try again in \d+ minutes?\.$/;

type Handler = Parameters<typeof call>[0];
/** As server.js serves it: behind the route wrapper, which keeps the client address. */
const served = (handler: Handler, kind: "loader" | "action" = "action") =>
  guardHandler(handler as never, kind) as unknown as Handler;

const login = (email: string, password: string, address: string) =>
  call(
    served(loginApi.action),
    makeRequest("/api/auth/password/login", { method: "POST", json: { email, password } }),
    {},
    { clientAddress: address },
  );

const changePassword = (cookie: string, currentPassword: string, address: string) =>
  call(
    served(changeApi.action),
    makeRequest("/api/auth/password/change", {
      method: "POST",
      cookie,
      json: { currentPassword, newPassword: "a brand new yard phrase 9" },
    }),
    {},
    { clientAddress: address },
  );

const turnOffTwoFactor = (cookie: string, password: string, address: string) =>
  call(
    served(disablePage.action),
    makeRequest("/settings/two-factor/disable", { method: "POST", cookie, form: { password } }),
    {},
    { clientAddress: address },
  );

const passkeyOptions = (cookie: string, password: string, address: string) =>
  call(
    served(registerOptionsApi.action),
    makeRequest("/api/passkeys/register/options", { method: "POST", cookie, json: { password } }),
    {},
    { clientAddress: address },
  );

async function withTwoFactor(userId: string) {
  const db = await getDb();
  await db.update(schema.users).set({ totpEnabled: true }).where(eq(schema.users.id, userId));
}

const messageOf = (body: unknown) => (body as { message: string }).message;
/** The whole seconds of a 429's Retry-After; NaN when it has none. */
const retryAfterOf = (response: { headers?: Headers }) => {
  const value = response.headers?.get("Retry-After") ?? "";
  return /^\d+$/.test(value) ? Number(value) : NaN;
};
const formErrorsOf = (body: unknown) =>
  (body as { result: { error: Record<string, string[] | null> } }).result.error.password;

describe("passwords asked again while signed in are throttled like sign-in", () => {
  it("Change Password: the sixth try in 15 minutes gets 429, even with the right password", async () => {
    const { user, cookie } = await loginAs("staff");
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++) {
      const wrong = await changePassword(cookie, `not-my-password-${i}`, "192.0.2.50");
      expect(wrong).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/Current password is incorrect/) },
      });
    }
    const locked = await changePassword(cookie, user.plainPassword, "192.0.2.50");
    expect(locked.status).toBe(429);
    expect(messageOf(locked.body)).toMatch(LOCKED);
    expect(locked.body).toMatchObject({ errors: { currentPassword: [messageOf(locked.body)] } });
    expect(retryAfterOf(locked)).toBeGreaterThan(0);
    expect((await verifyPassword(user.email, user.plainPassword)).ok).toBe(true);

    // No more than sign-in's own rule: this address is locked as after five wrong sign-ins, the
    // owner elsewhere is not, and the admin sees the lock and clears it.
    expect((await login(user.email, user.plainPassword, "192.0.2.50")).status).toBe(429);
    expect((await login(user.email, user.plainPassword, "198.51.100.50")).status).toBe(200);
    expect((await listUsers(READER)).find((u) => u.id === user.id)!.lockedUntil).not.toBeNull();
    const admin = await loginAs("admin");
    const unlock = await call(
      unlockApi.action,
      makeRequest(`/api/admin/users/${user.id}/unlock`, { method: "POST", cookie: admin.cookie }),
      { id: user.id },
    );
    expect(unlock.status).toBe(200);
    expect((await changePassword(cookie, user.plainPassword, "192.0.2.50")).status).toBe(200);
  });

  it("the Settings form shows the lock under Current password", async () => {
    const { user, cookie } = await loginAs("staff");
    const post = (currentPassword: string) =>
      call(
        served(passwordPage.action),
        makeRequest("/settings/password", {
          method: "POST",
          cookie,
          form: { currentPassword, newPassword: "long-enough-1", confirmPassword: "long-enough-1" },
        }),
        {},
        { clientAddress: "192.0.2.51" },
      );
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++) expect((await post("not-my-password")).status).toBe(400);
    const locked = await post(user.plainPassword);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({
      result: { error: { currentPassword: [expect.stringMatching(LOCKED)] } },
    });
    expect(retryAfterOf(locked)).toBeGreaterThan(0);
  });

  it("turning two-factor off: the sixth try gets 429 and two-factor stays on", async () => {
    const { user, cookie } = await loginAs("manager");
    await withTwoFactor(user.id);
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++) {
      const wrong = await turnOffTwoFactor(cookie, "not-my-password", "192.0.2.52");
      expect(wrong.status).toBe(400);
      expect(formErrorsOf(wrong.body)).toEqual(["Password is incorrect"]);
    }
    const locked = await turnOffTwoFactor(cookie, user.plainPassword, "192.0.2.52");
    expect(locked.status).toBe(429);
    expect(formErrorsOf(locked.body)).toEqual([expect.stringMatching(LOCKED)]);
    expect(retryAfterOf(locked)).toBeGreaterThan(0);
    expect((await getUserById(user.id))!.totpEnabled).toBe(true);
    // The same person from another address (another network) is not locked.
    expect((await turnOffTwoFactor(cookie, user.plainPassword, "198.51.100.52")).status).toBe(302);
    expect((await getUserById(user.id))!.totpEnabled).toBe(false);
  });

  it("confirming a factor change: the sixth try gets 429; wrong sign-ins and confirmations count together", async () => {
    const { user, cookie } = await loginAs("staff");
    for (let i = 0; i < 3; i++) expect((await login(user.email, "wrong-password", "192.0.2.53")).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await passkeyOptions(cookie, "nope-nope", "192.0.2.53")).status).toBe(400);
    const locked = await passkeyOptions(cookie, user.plainPassword, "192.0.2.53");
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({
      message: expect.stringMatching(LOCKED),
      errors: { password: [expect.any(String)] },
    });
    // The minutes in the message and the seconds in Retry-After say the same wait.
    const minutes = Number(/in (\d+) minute/.exec(messageOf(locked.body))![1]);
    expect(Math.ceil(retryAfterOf(locked) / 60)).toBe(minutes);
  });

  it("a right password starts the count again, as at sign-in; for a two-factor user only a code does", async () => {
    const { user, cookie } = await loginAs("staff");
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < THROTTLE_MAX_FAILURES - 1; i++)
        expect((await passkeyOptions(cookie, "nope-nope", "192.0.2.54")).status).toBe(400);
      expect((await passkeyOptions(cookie, user.plainPassword, "192.0.2.54")).status).toBe(200);
    }

    const other = await loginAs("staff");
    await withTwoFactor(other.user.id);
    for (let i = 0; i < THROTTLE_MAX_FAILURES - 1; i++)
      expect((await passkeyOptions(other.cookie, "nope-nope", "192.0.2.55")).status).toBe(400);
    expect((await passkeyOptions(other.cookie, other.user.plainPassword, "192.0.2.55")).status).toBe(200);
    expect((await passkeyOptions(other.cookie, "nope-nope", "192.0.2.55")).status).toBe(400);
    expect((await passkeyOptions(other.cookie, other.user.plainPassword, "192.0.2.55")).status).toBe(429);
  });

  it("forty racing wrong confirmations get at most the limit of password checks", async () => {
    const { cookie } = await loginAs("admin");
    const results = await Promise.all(
      Array.from({ length: 40 }, () => passkeyOptions(cookie, "wrong-password", "192.0.2.56")),
    );
    expect(results.filter((r) => r.status === 400).length).toBeLessThanOrEqual(THROTTLE_MAX_FAILURES);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(40 - THROTTLE_MAX_FAILURES);
  });
});
