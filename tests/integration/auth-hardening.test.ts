// Password rules (decision 0600), temporary-password expiry, the sign-in throttle,
// re-authentication for factor changes, encrypted TOTP secrets and passkey sign-in options.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { listUsers } from "../../app/models/admin-users.server";
import { consumeChallenge, passkeyAuthenticationOptions } from "../../app/models/passkey.server";
import { PASSWORD_IS_EMAIL, PASSWORD_TOO_COMMON, PASSWORD_TOO_LONG } from "../../app/models/password-policy.server";
import { getUserById, verifyPassword } from "../../app/models/user.server";
import * as createUserApi from "../../app/routes/api.admin.users";
import * as unlockApi from "../../app/routes/api.admin.users.$id.unlock";
import * as resetApi from "../../app/routes/api.admin.users.$id.reset-password";
import * as changeApi from "../../app/routes/api.auth.password.change";
import * as loginApi from "../../app/routes/api.auth.password.login";
import * as passkeyDeleteApi from "../../app/routes/api.passkeys.$id";
import * as passkeyOptionsApi from "../../app/routes/api.passkeys.authenticate.options";
import * as registerOptionsApi from "../../app/routes/api.passkeys.register.options";
import * as twoFactorPage from "../../app/routes/_app.settings.two-factor";
import * as disablePage from "../../app/routes/_app.settings.two-factor_.disable";
import * as unlockPage from "../../app/routes/_app.settings.users.$id.unlock";
import * as passwordPage from "../../app/routes/_app.settings.password";
import { loadSecurityCards } from "../../app/presenters/security.server";
import { formatDateTime } from "../../app/utils/dates";
import { THROTTLE_MAX_FAILURES } from "../../app/utils/throttle.server";
import { describeAccess } from "../access";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

/** Who reads the user list in these checks: an admin (the list is user.manage). */
const READER = { id: "00000000-0000-4000-8000-000000000000", role: "admin" } as const;

const cookieOf = (headers: Headers) => headers.get("Set-Cookie")?.split(";")[0] ?? "";
const login = (email: string, password: string, address = "198.51.100.1") =>
  call(
    loginApi.action,
    makeRequest("/api/auth/password/login", { method: "POST", json: { email, password } }),
    {},
    { clientAddress: address },
  );

async function signedIn(role: "staff" | "manager" | "admin" = "staff", password = "a-long-enough-secret") {
  const user = await createUser({ role, password });
  const res = await login(user.email, password, `203.0.113.${Math.floor(Math.random() * 250)}`);
  expect(res.status).toBe(200);
  return { user, cookie: cookieOf(res.headers) };
}

async function ageSession(cookie: string, minutes: number) {
  const db = await getDb();
  const { sessionCookie } = await import("../../app/utils/cookies.server");
  const sid = await sessionCookie().parse(cookie);
  await db
    .update(schema.sessions)
    .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(schema.sessions.sid, sid));
}

describeAccess("unlocking a sign-in is for admins only", [
  {
    name: "unlock api",
    handler: unlockApi.action,
    method: "POST",
    path: "/api/admin/users/00000000-0000-4000-8000-000000000001/unlock",
    params: { id: "00000000-0000-4000-8000-000000000001" },
    allowed: ["admin"],
  },
  {
    name: "unlock form",
    handler: unlockPage.action,
    method: "POST",
    path: "/settings/users/00000000-0000-4000-8000-000000000001/unlock",
    params: { id: "00000000-0000-4000-8000-000000000001" },
    form: {},
    allowed: ["admin"],
    page: true,
  },
]);

describe("new passwords", () => {
  const change = (cookie: string, currentPassword: string, newPassword: string) =>
    call(
      changeApi.action,
      makeRequest("/api/auth/password/change", { method: "POST", cookie, json: { currentPassword, newPassword } }),
    );

  it("refuses more than 72 bytes of UTF-8 (bcrypt ignores the rest); 64 characters still work", async () => {
    const { user, cookie } = await signedIn();
    const long = "a-passphrase-".repeat(6) + "x"; // 79 bytes
    expect(await change(cookie, user.plainPassword, long)).toMatchObject({
      status: 400,
      body: { message: PASSWORD_TOO_LONG },
    });
    // 38 characters, but each "é" is two bytes: 74 bytes.
    expect(await change(cookie, user.plainPassword, "é".repeat(37) + "z")).toMatchObject({
      status: 400,
      body: { message: PASSWORD_TOO_LONG },
    });
    const sixtyFour = "kodan-yard-".repeat(6).slice(0, 64);
    expect(sixtyFour).toHaveLength(64);
    expect((await change(cookie, user.plainPassword, sixtyFour)).status).toBe(200);
    expect((await login(user.email, sixtyFour)).status).toBe(200);
  });

  it("two passwords sharing their first 72 bytes cannot both be set", async () => {
    const { user, cookie } = await signedIn();
    const first72 = "q7-Ikorodu-yard-".repeat(5).slice(0, 72);
    expect((await change(cookie, user.plainPassword, first72 + "A")).status).toBe(400);
    expect((await change(cookie, user.plainPassword, first72)).status).toBe(200);
    // The stored 72-byte password is the whole password: nothing after it is silently dropped.
    expect((await login(user.email, first72 + "B")).status).toBe(200); // bcrypt's own behaviour, now unreachable for new passwords
  });

  it.each(["password", "12345678", "Password1", "qwertyuiop", "iloveyou"])(
    "refuses the common password %j and says why",
    async (common) => {
      const { user, cookie } = await signedIn();
      const res = await change(cookie, user.plainPassword, common);
      expect(res).toMatchObject({ status: 400, body: { message: PASSWORD_TOO_COMMON } });
    },
  );

  it("refuses the e-mail or its name part; the settings form says so under the field", async () => {
    const { user, cookie } = await signedIn();
    expect(await change(cookie, user.plainPassword, user.email)).toMatchObject({
      status: 400,
      body: { message: PASSWORD_IS_EMAIL },
    });
    expect(await change(cookie, user.plainPassword, user.email.split("@")[0].toUpperCase())).toMatchObject({
      status: 400,
      body: { message: PASSWORD_IS_EMAIL },
    });
    const form = await call(
      passwordPage.action,
      makeRequest("/settings/password", {
        method: "POST",
        cookie,
        form: { currentPassword: user.plainPassword, newPassword: "password", confirmPassword: "password" },
      }),
    );
    expect(form.status).toBe(400);
    expect(JSON.stringify(form.body)).toContain(PASSWORD_TOO_COMMON);
  });
});

describe("temporary passwords", () => {
  it("expire after 72 hours and never work again once changed", async () => {
    const admin = await loginAs("admin");
    const created = await call(
      createUserApi.action,
      makeRequest("/api/admin/users", {
        method: "POST",
        cookie: admin.cookie,
        json: { email: `temp-${Date.now()}@example.test`, role: "staff" },
      }),
    );
    expect(created.status).toBe(201);
    const { temporaryPassword, ...user } = created.body as { id: string; email: string; temporaryPassword: string };
    expect((await verifyPassword(user.email, temporaryPassword)).ok).toBe(true);
    expect(await verifyPassword(user.email, temporaryPassword, new Date(Date.now() + 73 * 3600_000))).toMatchObject({
      ok: false,
      reason: "expired",
    });
    const db = await getDb();
    await db
      .update(schema.users)
      .set({ temporaryPasswordExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.users.id, user.id));
    const expired = await login(user.email, temporaryPassword);
    expect(expired).toMatchObject({ status: 401, body: { message: expect.stringMatching(/expired/) } });

    // The admin resets: a new 72 hours.
    const reset = await call(
      resetApi.action,
      makeRequest(`/api/admin/users/${user.id}/reset-password`, { method: "POST", cookie: admin.cookie }),
      { id: user.id },
    );
    const fresh = (reset.body as { temporaryPassword: string }).temporaryPassword;
    const signed = await login(user.email, fresh);
    expect(signed.status).toBe(200);
    const cookie = cookieOf(signed.headers);
    const changed = await call(
      changeApi.action,
      makeRequest("/api/auth/password/change", {
        method: "POST",
        cookie,
        json: { currentPassword: fresh, newPassword: "my own yard phrase" },
      }),
    );
    expect(changed.status).toBe(200);
    expect((await login(user.email, fresh)).status).toBe(401);
    expect((await getUserById(user.id))!.temporaryPasswordExpiresAt).toBeNull();
  });
});

describe("sign-in throttle", () => {
  it("forty racing wrong passwords get at most the limit of password checks", async () => {
    const user = await createUser({ role: "admin" });
    const results = await Promise.all(
      Array.from({ length: 40 }, () => login(user.email, "wrong-password", "192.0.2.10")),
    );
    const checked = results.filter((r) => r.status === 401).length;
    expect(checked).toBeLessThanOrEqual(THROTTLE_MAX_FAILURES);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(40 - THROTTLE_MAX_FAILURES);
    const limited = results.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("a guesser locks only their own address: the owner elsewhere still signs in", async () => {
    const user = await createUser({ role: "admin" });
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++)
      expect((await login(user.email, "wrong-password", "192.0.2.20")).status).toBe(401);
    const attacker = await login(user.email, user.plainPassword, "192.0.2.20");
    expect(attacker.status).toBe(429);
    expect(attacker.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await login(user.email, user.plainPassword, "198.51.100.77")).status).toBe(200);
  });

  it("limits one address spraying many accounts", async () => {
    const users = await Promise.all(Array.from({ length: 13 }, () => createUser({ role: "staff" })));
    const statuses: number[] = [];
    for (const u of users)
      for (let i = 0; i < 4; i++) statuses.push((await login(u.email, "wrong-password", "192.0.2.30")).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // A new account from the same address is refused too, another address is not.
    const other = await createUser({ role: "staff" });
    expect((await login(other.email, other.plainPassword, "192.0.2.30")).status).toBe(429);
    expect((await login(other.email, other.plainPassword, "192.0.2.31")).status).toBe(200);
  }, 240_000);

  it("an admin sees the lock in User Management and clears it", async () => {
    const user = await createUser({ role: "manager" });
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++) await login(user.email, "wrong-password", "192.0.2.40");
    const row = (await listUsers(READER)).find((u) => u.id === user.id)!;
    expect(row.lockedUntil).not.toBeNull();
    const admin = await loginAs("admin");
    // The card shows the lock's end on the business's wall clock (Lagos, UTC+1), zone named.
    const cards = await loadSecurityCards((await getUserById(admin.user.id))!);
    const lagos = new Date(Date.parse(row.lockedUntil!) + 60 * 60 * 1000).toISOString();
    expect(cards.users!.find((u) => u.id === user.id)!.lockedUntil).toBe(`${formatDateTime(lagos.slice(0, 16))} WAT`);
    const res = await call(
      unlockPage.action,
      makeRequest(`/settings/users/${user.id}/unlock`, { method: "POST", cookie: admin.cookie }),
      { id: user.id },
    );
    expect(res.status).toBe(302);
    expect((await listUsers(READER)).find((u) => u.id === user.id)!.lockedUntil).toBeNull();
    expect((await login(user.email, user.plainPassword, "192.0.2.40")).status).toBe(200);
  });
});

describe("factor changes need a recent sign-in or the password", () => {
  it("GET /settings/two-factor writes nothing; Set up is a POST; the secret is stored encrypted", async () => {
    const { user, cookie } = await signedIn();
    const page = await call(twoFactorPage.loader, makeRequest("/settings/two-factor", { cookie }));
    expect(page.body).toMatchObject({ enrolment: null });
    expect((await getUserById(user.id))!.totpSecret).toBeNull();
    const setup = await call(
      twoFactorPage.action,
      makeRequest("/settings/two-factor", { method: "POST", cookie, form: { intent: "setup" } }),
    );
    expect(setup.status).toBe(302);
    const stored = (await getUserById(user.id))!.totpSecret!;
    const shown = (await call(twoFactorPage.loader, makeRequest("/settings/two-factor", { cookie }))).body as {
      enrolment: { secret: string };
    };
    expect(stored.startsWith("v1.")).toBe(true);
    expect(stored).not.toContain(shown.enrolment.secret);
  });

  it("after five minutes, turning two-factor on asks for the password", async () => {
    const { user, cookie } = await signedIn();
    await ageSession(cookie, 6);
    const post = (form: Record<string, string>) =>
      call(twoFactorPage.action, makeRequest("/settings/two-factor", { method: "POST", cookie, form }));
    expect((await post({ intent: "setup" })).status).toBe(403);
    expect((await post({ intent: "setup", password: "not-my-password" })).status).toBe(400);
    expect((await getUserById(user.id))!.totpSecret).toBeNull();
    expect((await post({ intent: "setup", password: user.plainPassword })).status).toBe(302);
    expect((await getUserById(user.id))!.totpSecret).not.toBeNull();
  });

  it("turning two-factor off needs the password", async () => {
    const { cookie } = await signedIn();
    const res = await call(
      disablePage.action,
      makeRequest("/settings/two-factor/disable", { method: "POST", cookie, form: {} }),
    );
    expect(res.status).toBeGreaterThanOrEqual(300);
  });

  it("after five minutes, adding or removing a passkey asks for the password", async () => {
    const { user, cookie } = await signedIn();
    await ageSession(cookie, 6);
    const options = (json: unknown) =>
      call(registerOptionsApi.action, makeRequest("/api/passkeys/register/options", { method: "POST", cookie, json }));
    expect((await options({})).status).toBe(403);
    expect((await options({ password: "nope-nope" })).status).toBe(400);
    expect((await options({ password: user.plainPassword })).status).toBe(200);
    const { cookie: other } = await signedIn();
    await ageSession(other, 10);
    expect(
      (
        await call(passkeyDeleteApi.action, makeRequest("/api/passkeys/1", { method: "DELETE", cookie: other }), {
          id: "1",
        })
      ).status,
    ).toBe(403);
  });
});

describe("passkey sign-in options", () => {
  it("are limited per address with Retry-After", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 35; i++) {
      const res = await call(
        passkeyOptionsApi.action,
        makeRequest("/api/passkeys/authenticate/options", { method: "POST", json: {} }),
        {},
        { clientAddress: "192.0.2.50" },
      );
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("Retry-After");
    }
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(30);
    expect(statuses.at(-1)).toBe(429);
    expect(retryAfter).toMatch(/^\d+$/);
    const db = await getDb();
    const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(schema.webauthnChallenges);
    expect(count).toBeLessThanOrEqual(31);
  });

  it("bind the challenge to the browser that asked and require user verification", async () => {
    const res = await call(
      passkeyOptionsApi.action,
      makeRequest("/api/passkeys/authenticate/options", { method: "POST", json: {} }),
      {},
      { clientAddress: "192.0.2.51" },
    );
    expect(res.body).toMatchObject({ userVerification: "required" });
    expect(res.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    const options = await passkeyAuthenticationOptions(undefined, new Date(), "binding-a");
    expect(await consumeChallenge(options.challenge, "authenticate", new Date(), "binding-b")).toBeNull();
    const again = await passkeyAuthenticationOptions(undefined, new Date(), "binding-a");
    expect(await consumeChallenge(again.challenge, "authenticate", new Date(), "binding-a")).not.toBeNull();
  });
});
