// Sign-in hardening (decisions 0600, 0401, 0003): an audit trail no flood of refused sign-ins
// can fill, an account no distributed guesser can lock against its owner, temporary passwords
// that sign in once, two-factor recovery codes, configurable session lifetimes, audited logout.
import { and, eq, inArray, like, or, sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterEach, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { listUsers } from "../../app/models/admin-users.server";
import { INVALID_RECOVERY_CODE } from "../../app/models/recovery-codes.server";
import { confirmTotpEnrolment, getTotpEnrolment, startTotpEnrolment } from "../../app/models/totp.server";
import { getUserById, insertUser } from "../../app/models/user.server";
import * as createUserApi from "../../app/routes/api.admin.users";
import * as unlockApi from "../../app/routes/api.admin.users.$id.unlock";
import * as changeApi from "../../app/routes/api.auth.password.change";
import * as loginApi from "../../app/routes/api.auth.password.login";
import * as logoutApi from "../../app/routes/api.auth.password.logout";
import * as passkeyOptionsApi from "../../app/routes/api.passkeys.authenticate.options";
import * as verifyApi from "../../app/routes/api.totp.verify-login";
import * as logoutPage from "../../app/routes/logout";
import * as loginPage from "../../app/routes/login";
import * as loginVerifyPage from "../../app/routes/login.verify";
import * as recoveryPage from "../../app/routes/_app.settings.two-factor_.recovery-codes";
import { resetEnv } from "../../app/utils/env.server";
import { createSession, readSession } from "../../app/utils/session.server";
import {
  ACCOUNT_LIMIT,
  ADDRESS_MINUTE_LIMIT,
  takeSignInAttempt,
  THROTTLE_WINDOW_MS,
} from "../../app/utils/throttle.server";
import { describeAccess } from "../access";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

describeAccess("recovery codes need a signed-in user", [
  {
    name: "recovery codes page",
    handler: recoveryPage.loader,
    method: "GET",
    path: "/settings/two-factor/recovery-codes",
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
  {
    name: "new recovery codes",
    handler: recoveryPage.action,
    method: "POST",
    path: "/settings/two-factor/recovery-codes",
    form: { password: "x" },
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
]);

const READER = { id: "00000000-0000-4000-8000-000000000000", role: "admin" } as const;
const cookieOf = (headers: Headers) => headers.get("Set-Cookie")?.split(";")[0] ?? "";
const login = (email: string, password: string, address: string) =>
  call(
    loginApi.action,
    makeRequest("/api/auth/password/login", { method: "POST", json: { email, password } }),
    {},
    { clientAddress: address },
  );

/** Sign-in rows of the trail (anything `auth.sign_in*` or `auth.locked`) from these addresses. */
async function signInRows(addresses: string[]) {
  const db = await getDb();
  return db
    .select()
    .from(schema.auditEvents)
    .where(
      and(
        inArray(schema.auditEvents.clientAddress, addresses),
        or(like(schema.auditEvents.action, "auth.sign_in%"), eq(schema.auditEvents.action, "auth.locked")),
      ),
    );
}

describe("refused sign-ins cannot flood the audit trail", () => {
  it("300 wrong passwords from one address: counted in the throttle, a handful of rows in the trail", async () => {
    const user = await createUser({ role: "admin" });
    const address = "203.0.113.201";
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push((await login(user.email, "wrong-password", address)).status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(295);
    const rows = await signInRows([address]);
    // One failure, and one lock per counter that started refusing (this address for the account,
    // the address per minute and per 15 minutes, the account).
    expect(rows.filter((r) => r.action === "auth.sign_in_failed")).toHaveLength(1);
    expect(rows.length).toBeLessThanOrEqual(6);
    expect(rows.filter((r) => r.action === "auth.locked").map((r) => r.after?.scope)).toContain("account-address");
    // Every attempt is counted where it can be pruned: all 300 are on the address's counter.
    const db = await getDb();
    const [counter] = await db
      .select()
      .from(schema.authThrottle)
      .where(eq(schema.authThrottle.key, `ip:${address}`));
    expect(counter.count).toBe(300);
  }, 240_000);

  it("one wrong password from each of 300 addresses: rows bounded by the account's limit, not the addresses", async () => {
    const user = await createUser({ role: "admin" });
    const addresses = Array.from({ length: 300 }, (_, i) => `10.9.${Math.floor(i / 250)}.${i % 250}`);
    for (const address of addresses) await login(user.email, "wrong-password", address);
    const rows = await signInRows(addresses);
    expect(rows.filter((r) => r.action === "auth.sign_in_failed")).toHaveLength(ACCOUNT_LIMIT);
    expect(rows.filter((r) => r.action === "auth.locked")).toHaveLength(1);
  }, 240_000);

  it("300 unknown e-mails from one address: one failure row and the address's locks", async () => {
    const address = "203.0.113.202";
    for (let i = 0; i < 300; i++) await login(`nobody-${i}@example.test`, "wrong-password", address);
    const rows = await signInRows([address]);
    expect(rows.filter((r) => r.action === "auth.sign_in_failed")).toHaveLength(1);
    expect(rows.length).toBeLessThanOrEqual(4);
  }, 240_000);
});

describe("a distributed guesser cannot lock the owner out", () => {
  it("the owner signs in with the right password from a clean address while an attacker keeps failing", async () => {
    const owner = await createUser({ role: "admin" });
    const attackers = Array.from({ length: ACCOUNT_LIMIT }, (_, i) => `198.18.0.${i + 1}`);
    for (const address of attackers) expect((await login(owner.email, "wrong-guess", address)).status).toBe(401);
    // The account is past its limit: every address that failed on it is refused, even with the
    // right password.
    for (const address of attackers) {
      expect((await login(owner.email, "wrong-guess", address)).status).toBe(429);
      expect((await login(owner.email, owner.plainPassword, address)).status).toBe(429);
    }
    // The owner, from an address with no failure, still signs in; again after more guessing.
    expect((await login(owner.email, owner.plainPassword, "198.51.100.10")).status).toBe(200);
    for (const address of attackers) await login(owner.email, "wrong-guess", address);
    expect((await login(owner.email, owner.plainPassword, "198.51.100.11")).status).toBe(200);
    // Passkey sign-in stays open to the account.
    const options = await call(
      passkeyOptionsApi.action,
      makeRequest("/api/passkeys/authenticate/options", { method: "POST", json: { email: owner.email } }),
      {},
      { clientAddress: "198.51.100.12" },
    );
    expect(options.status).toBe(200);
    // An admin's Unlock clears the account's counters: the attacker's address is checked again.
    const admin = await loginAs("admin");
    const unlocked = await call(
      unlockApi.action,
      makeRequest(`/api/admin/users/${owner.id}/unlock`, { method: "POST", cookie: admin.cookie }),
      { id: owner.id },
    );
    expect(unlocked.status).toBe(200);
    expect((await login(owner.email, "wrong-guess", attackers[0])).status).toBe(401);
  }, 120_000);

  it("twenty new guessing addresses every 15 minutes do not lock the owner either", async () => {
    const owner = await createUser({ role: "admin" });
    const start = Date.now();
    for (let round = 0; round < 3; round++) {
      const at = new Date(start + round * THROTTLE_WINDOW_MS);
      for (let i = 0; i <= ACCOUNT_LIMIT; i++) await takeSignInAttempt(owner.email, `198.18.${round + 1}.${i}`, at);
      const ownerTry = await takeSignInAttempt(owner.email, `198.51.100.${20 + round}`, new Date(at.getTime() + 1000));
      expect(ownerTry.limited, `round ${round}`).toBe(false);
    }
  }, 120_000);

  it("the per-address limit refuses the 11th failure within a minute, whatever the accounts", async () => {
    const users = await Promise.all(Array.from({ length: ADDRESS_MINUTE_LIMIT + 1 }, () => createUser()));
    const address = "203.0.113.203";
    const statuses = [];
    for (const u of users) statuses.push(await login(u.email, "wrong-password", address));
    expect(statuses.slice(0, ADDRESS_MINUTE_LIMIT).map((r) => r.status)).toEqual(Array(ADDRESS_MINUTE_LIMIT).fill(401));
    const eleventh = statuses[ADDRESS_MINUTE_LIMIT];
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get("Retry-After"))).toBeLessThanOrEqual(60);
    // Another address is not affected.
    expect((await login(users[0].email, users[0].plainPassword, "203.0.113.204")).status).toBe(200);
  }, 120_000);

  it("the sign-in page counts against the client's own address, not one shared by every form", async () => {
    const formLogin = (email: string, password: string, address: string) =>
      call(
        loginPage.action,
        makeRequest("/login", { method: "POST", form: { email, password } }),
        {},
        {
          clientAddress: address,
        },
      );
    const users = await Promise.all(Array.from({ length: ADDRESS_MINUTE_LIMIT + 1 }, () => createUser()));
    const statuses = [];
    for (const u of users) statuses.push((await formLogin(u.email, "wrong-password", "203.0.113.205")).status);
    expect(statuses).toEqual([...Array(ADDRESS_MINUTE_LIMIT).fill(401), 429]);
    // Someone at another desk still signs in through the same page, and the trail names their address.
    const other = await formLogin(users[0].email, users[0].plainPassword, "203.0.113.206");
    expect(other.status).toBe(302);
    const rows = await signInRows(["203.0.113.206"]);
    expect(rows.map((r) => r.action)).toContain("auth.sign_in");
  }, 120_000);
});

async function adminCreatesUser() {
  const admin = await loginAs("admin");
  const created = await call(
    createUserApi.action,
    makeRequest("/api/admin/users", {
      method: "POST",
      cookie: admin.cookie,
      json: { email: `once-${Date.now()}-${Math.random()}@example.test`, role: "staff" },
    }),
  );
  expect(created.status).toBe(201);
  return created.body as { id: string; email: string; temporaryPassword: string };
}

describe("temporary passwords sign in once", () => {
  it("the temporary password is refused on its second use; its session can change the password", async () => {
    const user = await adminCreatesUser();
    const [before] = (await listUsers(READER)).filter((u) => u.id === user.id);
    expect(before.temporaryPasswordIssuedAt).not.toBeNull();
    expect(before.temporaryPasswordUsed).toBe(false);
    const first = await login(user.email, user.temporaryPassword, "192.0.2.101");
    expect(first).toMatchObject({ status: 200, body: { mustChangePassword: 1 } });
    const second = await login(user.email, user.temporaryPassword, "192.0.2.102");
    expect(second).toMatchObject({ status: 401, body: { message: expect.stringMatching(/already been used/) } });
    const [after] = (await listUsers(READER)).filter((u) => u.id === user.id);
    expect(after.temporaryPasswordUsed).toBe(true);
    const changed = await call(
      changeApi.action,
      makeRequest("/api/auth/password/change", {
        method: "POST",
        cookie: cookieOf(first.headers),
        json: { currentPassword: user.temporaryPassword, newPassword: "a yard phrase of mine" },
      }),
    );
    expect(changed.status).toBe(200);
    expect((await login(user.email, "a yard phrase of mine", "192.0.2.103")).status).toBe(200);
    expect((await login(user.email, "a yard phrase of mine", "192.0.2.103")).status).toBe(200);
    const [changedRow] = (await listUsers(READER)).filter((u) => u.id === user.id);
    expect(changedRow.temporaryPasswordIssuedAt).toBeNull();
  });

  it("two racing sign-ins with one temporary password: exactly one passes", async () => {
    const user = await adminCreatesUser();
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => login(user.email, user.temporaryPassword, `192.0.2.11${i}`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it("the first admin's start-up password (no issue time: nobody could reset it) is not single-use", async () => {
    const first = await insertUser({
      email: `first-${Date.now()}@example.test`,
      role: "admin",
      password: "start-up-password-1",
      mustChangePassword: true,
    });
    expect((await login(first.email, "start-up-password-1", "192.0.2.120")).status).toBe(200);
    expect((await login(first.email, "start-up-password-1", "192.0.2.120")).status).toBe(200);
  });
});

async function enrolledUser() {
  const user = await createUser({ role: "manager" });
  await startTotpEnrolment(user);
  const fresh = (await getUserById(user.id))!;
  const secret = (await getTotpEnrolment(fresh))!.secret;
  const past = new Date(Date.now() - 30_000);
  const result = await confirmTotpEnrolment(
    fresh,
    await generate({ secret, epoch: Math.floor(past.getTime() / 1000) }),
    past,
  );
  if (!result.ok) throw new Error(result.message);
  return { ...user, secret, codes: result.recoveryCodes };
}

async function passwordStep(email: string, password: string, address = "192.0.2.130") {
  const res = await login(email, password, address);
  expect(res).toMatchObject({ status: 200, body: { requiresTOTP: true } });
  return cookieOf(res.headers);
}

const recoveryApi = (cookie: string, recoveryCode: string) =>
  call(
    verifyApi.action,
    makeRequest("/api/totp/verify-login", { method: "POST", cookie, json: { recoveryCode } }),
    {},
    { clientAddress: "192.0.2.130" },
  );

describe("two-factor recovery codes", () => {
  it("ten codes at enrolment, hashed at rest; each signs in once instead of a code, audited", async () => {
    const user = await enrolledUser();
    expect(user.codes).toHaveLength(10);
    expect(new Set(user.codes).size).toBe(10);
    const db = await getDb();
    const stored = await db.select().from(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) for (const code of user.codes) expect(row.codeHash).not.toContain(code.replace("-", ""));

    const signed = await recoveryApi(await passwordStep(user.email, user.plainPassword), user.codes[0].toUpperCase());
    expect(signed.status).toBe(200);
    expect(cookieOf(signed.headers)).not.toBe("");
    const again = await recoveryApi(await passwordStep(user.email, user.plainPassword), user.codes[0]);
    expect(again).toMatchObject({ status: 401, body: { message: INVALID_RECOVERY_CODE } });

    // The HTML form of the code step takes a recovery code too.
    const pending = await passwordStep(user.email, user.plainPassword);
    const page = await call(
      loginVerifyPage.action,
      makeRequest("/login/verify", { method: "POST", cookie: pending, form: { recoveryCode: user.codes[1] } }),
      {},
      { clientAddress: "192.0.2.130" },
    );
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/");

    const used = await db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.entityId, user.id), eq(schema.auditEvents.action, "auth.recovery_code_used")))
      .orderBy(schema.auditEvents.id);
    expect(used.map((r) => r.after?.remaining)).toEqual([9, 8]);
    const methods = await db
      .select({ method: sql<string>`${schema.auditEvents.after}->>'method'` })
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.entityId, user.id), eq(schema.auditEvents.action, "auth.sign_in")));
    expect(methods.filter((m) => m.method === "password+recovery-code")).toHaveLength(2);
  });

  it("two racing sign-ins with one code: exactly one passes", async () => {
    const user = await enrolledUser();
    const pendings = [
      await passwordStep(user.email, user.plainPassword),
      await passwordStep(user.email, user.plainPassword),
    ];
    const results = await Promise.all(pendings.map((p) => recoveryApi(p, user.codes[2])));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("new codes need re-authentication, are shown once, and replace the old ones", async () => {
    const user = await enrolledUser();
    const { cookie } = await (async () => {
      const { cookie } = await createSession(
        new Request("http://localhost/"),
        user.id,
        {},
        new Date(Date.now() - 10 * 60_000),
      );
      return { cookie: cookie.split(";")[0] };
    })();
    const page = (c: string) =>
      call(recoveryPage.loader, makeRequest("/settings/two-factor/recovery-codes", { cookie: c }));
    expect(await page(cookie)).toMatchObject({
      status: 200,
      body: { codes: null, remaining: 10, needsPassword: true },
    });
    const post = (password: string) =>
      call(
        recoveryPage.action,
        makeRequest("/settings/two-factor/recovery-codes", { method: "POST", cookie, form: { password } }),
        {},
        { clientAddress: "192.0.2.140" },
      );
    expect((await post("")).status).toBe(403);
    expect((await post("wrong-password")).status).toBe(400);
    const made = await post(user.plainPassword);
    expect(made).toMatchObject({ status: 302 });
    expect(made.headers.get("Location")).toBe("/settings/two-factor/recovery-codes");
    const shown = await page(cookie);
    const codes = (shown.body as { codes: string[] }).codes;
    expect(codes).toHaveLength(10);
    expect((await page(cookie)).body).toMatchObject({ codes: null, remaining: 10 });
    // The old codes no longer sign in; a new one does.
    expect((await recoveryApi(await passwordStep(user.email, user.plainPassword), user.codes[0])).status).toBe(401);
    expect((await recoveryApi(await passwordStep(user.email, user.plainPassword), codes[0])).status).toBe(200);
    const db = await getDb();
    const generated = await db
      .select()
      .from(schema.auditEvents)
      .where(
        and(eq(schema.auditEvents.entityId, user.id), eq(schema.auditEvents.action, "auth.recovery_codes_generate")),
      );
    expect(generated).toHaveLength(1);
  });
});

describe("sessions", () => {
  afterEach(() => {
    delete process.env.SESSION_IDLE_MINUTES;
    delete process.env.SESSION_ABSOLUTE_MINUTES;
    resetEnv();
  });

  it("idle and absolute lifetimes come from the environment", async () => {
    process.env.SESSION_IDLE_MINUTES = "30";
    process.env.SESSION_ABSOLUTE_MINUTES = "60";
    resetEnv();
    const user = await createUser();
    const start = new Date("2026-06-01T08:00:00Z");
    const open = async () => {
      const { cookie } = await createSession(new Request("http://localhost/"), user.id, {}, start);
      return new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } });
    };
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    const idle = await open();
    expect(await readSession(idle, at(29))).not.toBeNull();
    expect(await readSession(await open(), at(31))).toBeNull();
    const busy = await open();
    for (const m of [20, 40, 55]) expect(await readSession(busy, at(m)), `at ${m} min`).not.toBeNull();
    expect(await readSession(busy, at(60))).toBeNull();
  });

  it("logging out is in the audit trail (the page and the API)", async () => {
    const db = await getDb();
    for (const [handler, path, expected] of [
      [logoutPage.action, "/logout", 302],
      [logoutApi.action, "/api/auth/password/logout", 200],
    ] as const) {
      const { user, cookie } = await loginAs("staff");
      const res = await call(handler, makeRequest(path, { method: "POST", cookie }));
      expect(res.status).toBe(expected);
      const rows = await db
        .select()
        .from(schema.auditEvents)
        .where(and(eq(schema.auditEvents.entityId, user.id), eq(schema.auditEvents.action, "auth.sign_out")));
      expect(rows).toHaveLength(1);
      expect(rows[0].actorId).toBe(user.id);
    }
    // Signed out already: nothing to record.
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(schema.auditEvents);
    await call(logoutPage.action, makeRequest("/logout", { method: "POST" }));
    const after = await db.select({ n: sql<number>`count(*)::int` }).from(schema.auditEvents);
    expect(after[0].n).toBe(before[0].n);
  });
});
