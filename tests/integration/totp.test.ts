import { generate } from "otplib";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { getUserById } from "../../app/models/user.server";
import {
  completeTotpLogin,
  confirmTotpEnrolment,
  disableTotp,
  getTotpEnrolment,
  startTotpEnrolment,
  TOTP_PENDING_TTL_MS,
} from "../../app/models/totp.server";
import * as resetRoute from "../../app/routes/api.admin.users.$id.reset-password";
import * as statusRoute from "../../app/routes/api.admin.users.$id.status";
import * as changeRoute from "../../app/routes/api.auth.password.change";
import * as loginRoute from "../../app/routes/api.auth.password.login";
import * as meRoute from "../../app/routes/api.auth.user";
import * as verifyRoute from "../../app/routes/api.totp.verify-login";
import * as setupPage from "../../app/routes/_app.settings.two-factor";
import * as disablePage from "../../app/routes/_app.settings.two-factor_.disable";
import * as loginVerifyPage from "../../app/routes/login.verify";
import { describeAccess } from "../access";
import { createSession } from "../../app/utils/session.server";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { expectEveryEventWorded } from "../audit-words";

describeAccess("two-factor settings need a signed-in user", [
  {
    name: "set-up page",
    handler: setupPage.loader,
    method: "GET",
    path: "/settings/two-factor",
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
  {
    name: "set-up form",
    handler: setupPage.action,
    method: "POST",
    path: "/settings/two-factor",
    form: { token: "123456" },
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
  {
    name: "turn-off form",
    handler: disablePage.action,
    method: "POST",
    path: "/settings/two-factor/disable",
    form: { password: "x" },
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
]);

// The calls here come from no client address ("unknown"): one address, which may fail only ten
// times a minute (decision 0600). Each test starts with no sign-in counters.
beforeEach(async () => {
  const db = await getDb();
  await db.delete(schema.authThrottle);
});

const cookieOf = (headers: Headers) => headers.get("Set-Cookie")?.split(";")[0] ?? "";
const codeAt = (secret: string, date: Date) => generate({ secret, epoch: Math.floor(date.getTime() / 1000) });

async function enrolledUser() {
  const user = await createUser({ role: "staff" });
  await startTotpEnrolment(user);
  const fresh = (await getUserById(user.id))!;
  const enrolment = await getTotpEnrolment(fresh);
  // Confirm with the previous step's code, so codes of the current step are still unused.
  const past = new Date(Date.now() - 30_000);
  expect(await confirmTotpEnrolment(fresh, await codeAt(enrolment!.secret, past), past)).toMatchObject({ ok: true });
  return { ...user, secret: enrolment!.secret };
}

async function passwordStep(email: string, password: string) {
  const res = await call(
    loginRoute.action,
    makeRequest("/api/auth/password/login", { method: "POST", json: { email, password } }),
  );
  expect(res).toMatchObject({ status: 200, body: { requiresTOTP: true } });
  return cookieOf(res.headers);
}

describe("two-factor codes", () => {
  it("enrolment needs a right code; the half-way session is not signed in", async () => {
    const user = await createUser({ role: "staff" });
    expect(await getTotpEnrolment(user)).toBeNull();
    await startTotpEnrolment(user);
    const enrolment = await getTotpEnrolment((await getUserById(user.id))!);
    expect(enrolment?.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(enrolment?.uri).toContain(`secret=${enrolment?.secret}`);
    const fresh = (await getUserById(user.id))!;
    expect(await confirmTotpEnrolment(fresh, "000000")).toMatchObject({ ok: false, status: 400 });
    expect((await getUserById(user.id))!.totpEnabled).toBe(false);
    const enrolled = await enrolledUser();
    const pending = await passwordStep(enrolled.email, enrolled.plainPassword);
    expect((await call(meRoute.loader, makeRequest("/api/auth/user", { cookie: pending }))).status).toBe(401);
  });

  it("a code signs in once; the same code replayed is refused", async () => {
    const user = await enrolledUser();
    const code = await codeAt(user.secret, new Date());
    const pending = await passwordStep(user.email, user.plainPassword);
    const bad = await call(
      verifyRoute.action,
      makeRequest("/api/totp/verify-login", { method: "POST", cookie: pending, json: { token: "12345" } }),
    );
    expect(bad).toMatchObject({
      status: 400,
      body: { message: "Please enter the 6-digit code from your authenticator app" },
    });
    const ok = await call(
      verifyRoute.action,
      makeRequest("/api/totp/verify-login", { method: "POST", cookie: pending, json: { token: code } }),
    );
    expect(ok).toMatchObject({ status: 200, body: { id: user.id, mustChangePassword: 0 } });
    const session = cookieOf(ok.headers);
    expect((await call(meRoute.loader, makeRequest("/api/auth/user", { cookie: session }))).status).toBe(200);

    // The code sent again on the signed-in session (a second tap) is refused and signs no one out.
    const again = await call(
      verifyRoute.action,
      makeRequest("/api/totp/verify-login", { method: "POST", cookie: session, json: { token: code } }),
    );
    expect(again).toMatchObject({ status: 400, body: { message: "You are already signed in." } });
    expect(again.headers.get("Set-Cookie")).toBeNull();
    expect((await call(meRoute.loader, makeRequest("/api/auth/user", { cookie: session }))).status).toBe(200);

    const pendingAgain = await passwordStep(user.email, user.plainPassword);
    const replay = await call(
      verifyRoute.action,
      makeRequest("/api/totp/verify-login", { method: "POST", cookie: pendingAgain, json: { token: code } }),
    );
    expect(replay).toMatchObject({ status: 401, body: { message: "Invalid authenticator code" } });
  });

  it("the half-way session expires after five minutes", async () => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email, user.plainPassword);
    const later = new Date(Date.now() + TOTP_PENDING_TTL_MS + 1000);
    const code = await codeAt(user.secret, later);
    const result = await completeTotpLogin(
      makeRequest("/api/totp/verify-login", { method: "POST", cookie: pending }),
      code,
      later,
    );
    expect(result).toMatchObject({ ok: false, status: 401 });
  });

  it("five wrong codes in 15 minutes lock the account with 429, even for the right code", async () => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email, user.plainPassword);
    const post = (token: string) =>
      call(
        verifyRoute.action,
        makeRequest("/api/totp/verify-login", { method: "POST", cookie: pending, json: { token } }),
      );
    const right = await codeAt(user.secret, new Date());
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await post(wrong)).status).toBe(401);
    expect((await post(right)).status).toBe(429);
    const passwordAgain = await call(
      loginRoute.action,
      makeRequest("/api/auth/password/login", {
        method: "POST",
        json: { email: user.email, password: user.plainPassword },
      }),
    );
    expect(passwordAgain.status).toBe(429);
  });

  it("the sixth wrong password in 15 minutes gets 429", async () => {
    const user = await createUser({ role: "manager" });
    const post = (password: string) =>
      call(
        loginRoute.action,
        makeRequest("/api/auth/password/login", { method: "POST", json: { email: user.email, password } }),
      );
    for (let i = 0; i < 5; i++) expect((await post("wrong-password")).status).toBe(401);
    const sixth = await post(user.plainPassword);
    expect(sixth.status).toBe(429);
    expect((sixth.body as { message: string }).message).toMatch(/Too many failed attempts/);
  });

  it("frozen users cannot finish the code step", async () => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email, user.plainPassword);
    const { getDb, schema } = await import("../../app/db.server");
    const { eq } = await import("drizzle-orm");
    await (await getDb()).update(schema.users).set({ status: "frozen" }).where(eq(schema.users.id, user.id));
    const res = await call(
      verifyRoute.action,
      makeRequest("/api/totp/verify-login", {
        method: "POST",
        cookie: pending,
        json: { token: await codeAt(user.secret, new Date()) },
      }),
    );
    expect(res.status).toBe(401);
  });

  it("the HTML code step signs in and goes home; turning off needs the password", async () => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email, user.plainPassword);
    const page = await call(loginVerifyPage.loader, makeRequest("/login/verify", { cookie: pending }));
    expect(page.status).toBe(200);
    const short = await call(
      loginVerifyPage.action,
      makeRequest("/login/verify", { method: "POST", cookie: pending, form: { token: "12a" } }),
    );
    expect(short.status).toBe(400);
    const ok = await call(
      loginVerifyPage.action,
      makeRequest("/login/verify", {
        method: "POST",
        cookie: pending,
        form: { token: await codeAt(user.secret, new Date()) },
      }),
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/");
    const fresh = (await getUserById(user.id))!;
    expect(await disableTotp(fresh, "wrong")).toMatchObject({ ok: false });
    expect(await disableTotp(fresh, user.plainPassword)).toEqual({ ok: true });
    expect((await getUserById(user.id))!.totpEnabled).toBe(false);
  });
});

// Decision 0003: re-passwording (or freezing) a user ends their sessions at once. A half-way
// sign-in is one of them: the attacker who typed the old password must not finish with a code.
describe("ending a user's sessions ends a half-way sign-in too", () => {
  const EXPIRED = { status: 401, body: { message: "Your sign-in has expired. Please sign in again." } };
  const verify = (cookie: string, token: string) =>
    call(verifyRoute.action, makeRequest("/api/totp/verify-login", { method: "POST", cookie, json: { token } }));

  const endings: [string, (user: Awaited<ReturnType<typeof enrolledUser>>) => Promise<void>][] = [
    [
      "the user changes their password",
      async (user) => {
        const { cookie } = await createSession(new Request("http://localhost/"), user.id);
        const res = await call(
          changeRoute.action,
          makeRequest("/api/auth/password/change", {
            method: "POST",
            cookie: cookie.split(";")[0],
            json: { currentPassword: user.plainPassword, newPassword: "a fresh yard phrase 42" },
          }),
        );
        expect(res.status).toBe(200);
      },
    ],
    [
      "an admin resets the password",
      async (user) => {
        const admin = await loginAs("admin");
        const res = await call(
          resetRoute.action,
          makeRequest(`/api/admin/users/${user.id}/reset-password`, { method: "POST", cookie: admin.cookie }),
          { id: user.id },
        );
        expect(res.status).toBe(200);
      },
    ],
    [
      "an admin freezes the user, then unfreezes them",
      async (user) => {
        const admin = await loginAs("admin");
        for (const status of ["frozen", "active"]) {
          const res = await call(
            statusRoute.action,
            makeRequest(`/api/admin/users/${user.id}/status`, {
              method: "PATCH",
              cookie: admin.cookie,
              json: { status },
            }),
            { id: user.id },
          );
          expect(res.status).toBe(200);
        }
      },
    ],
  ];

  it.each(endings)("password accepted, then %s: the code step is refused", async (_, end) => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email, user.plainPassword);
    await end(user);
    const code = await codeAt(user.secret, new Date());
    expect(await verify(pending, code)).toMatchObject(EXPIRED);
    expect((await call(loginVerifyPage.loader, makeRequest("/login/verify", { cookie: pending }))).status).toBe(302);
  });

  it("the half-way session has no user id and signs no one in; its code still works", async () => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email, user.plainPassword);
    const { getDb, schema } = await import("../../app/db.server");
    const { sql } = await import("drizzle-orm");
    // No user id: a server of the version before, beside this one or after a rollback, would
    // take a row with one for a sign-in.
    const rows = await (
      await getDb()
    )
      .select()
      .from(schema.sessions)
      .where(sql`${schema.sessions.sess}->>'pendingTotpUserId' = ${user.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0].userId).toBeNull();
    expect((await call(meRoute.loader, makeRequest("/api/auth/user", { cookie: pending }))).status).toBe(401);
    const page = await call(setupPage.loader, makeRequest("/settings/two-factor", { cookie: pending }));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/^\/login/);
    expect(await verify(pending, await codeAt(user.secret, new Date()))).toMatchObject({
      status: 200,
      body: { id: user.id },
    });
  });

  it("ending one user's sessions ends their half-way sign-in and no one else's", async () => {
    const one = await enrolledUser();
    const other = await enrolledUser();
    const pendingOne = await passwordStep(one.email, one.plainPassword);
    const pendingOther = await passwordStep(other.email, other.plainPassword);
    const { endUserSessions } = await import("../../app/utils/session.server");
    await endUserSessions(one.id);
    expect(await verify(pendingOne, await codeAt(one.secret, new Date()))).toMatchObject(EXPIRED);
    expect(await verify(pendingOther, await codeAt(other.secret, new Date()))).toMatchObject({
      status: 200,
      body: { id: other.id },
    });
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});
