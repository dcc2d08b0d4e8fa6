// An admin changes another user's role (decision 0400): the JSON call and the HTML form share
// changeUserRole; both ask for a recent sign-in or the password; the system keeps an admin.
// Also the reset's post-then-redirect page and the bulk calls' reasons.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import * as roleApi from "../../app/routes/api.admin.users.$id.role";
import * as rolePage from "../../app/routes/_app.settings.users.$id.role";
import * as resetPage from "../../app/routes/_app.settings.users.$id.reset";
import * as shownPage from "../../app/routes/_app.settings.users.$id.temporary-password";
import * as bulkStatusApi from "../../app/routes/api.admin.users.bulk.status";
import * as bulkPage from "../../app/routes/_app.settings.users.bulk";
import * as switcher from "../../app/routes/_app.settings.role";
import * as loginApi from "../../app/routes/api.auth.password.login";
import { changeUserRole } from "../../app/models/admin-users.server";
import { getUserById } from "../../app/models/user.server";
import { sessionCookie } from "../../app/utils/cookies.server";
import { readToast } from "../../app/utils/toast.server";
import { describeAccess } from "../access";
import { createUser, loginAs, TEST_PASSWORD } from "../factories";
import { call, makeRequest } from "../http";

const ID = "00000000-0000-4000-8000-000000000001";

describeAccess("changing another user's role is for admins only", [
  {
    name: "role api",
    handler: roleApi.action,
    method: "PATCH",
    path: `/api/admin/users/${ID}/role`,
    params: { id: ID },
    json: { role: "manager" },
    allowed: ["admin"],
  },
  {
    name: "change role page",
    handler: rolePage.loader,
    method: "GET",
    path: `/settings/users/${ID}/role`,
    params: { id: ID },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "change role form",
    handler: rolePage.action,
    method: "POST",
    path: `/settings/users/${ID}/role`,
    params: { id: ID },
    form: { role: "manager" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "temporary password page",
    handler: shownPage.loader,
    method: "GET",
    path: `/settings/users/${ID}/temporary-password`,
    params: { id: ID },
    allowed: ["admin"],
    page: true,
  },
]);

async function ageSession(cookie: string, minutes: number) {
  const db = await getDb();
  const sid = await sessionCookie().parse(cookie);
  await db
    .update(schema.sessions)
    .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(schema.sessions.sid, sid));
}

const patchRole = (id: string, cookie: string, json: unknown) =>
  call(roleApi.action, makeRequest(`/api/admin/users/${id}/role`, { method: "PATCH", cookie, json }), { id });

async function roleEvents(userId: string) {
  const db = await getDb();
  return db
    .select()
    .from(schema.auditEvents)
    .where(and(eq(schema.auditEvents.entityId, userId), eq(schema.auditEvents.action, "user.role_change")));
}

async function toastOf(res: { headers: Headers }) {
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  const toastPart = setCookie.split(/,(?=\s*__)/).find((c) => c.trim().startsWith("__toast")) ?? "";
  const { toast } = await readToast(new Request("http://localhost/", { headers: { Cookie: toastPart.split(";")[0] } }));
  return toast;
}

describe("PATCH /api/admin/users/{id}/role", () => {
  it("makes a staff user an admin and back, each change audited", async () => {
    const { cookie } = await loginAs("admin");
    const staff = await createUser({ role: "staff" });
    const up = await patchRole(staff.id, cookie, { role: "admin" });
    expect(up).toMatchObject({ status: 200, body: { id: staff.id, role: "admin" } });
    expect((await getUserById(staff.id))!.role).toBe("admin");
    const down = await patchRole(staff.id, cookie, { role: "manager" });
    expect(down).toMatchObject({ status: 200, body: { role: "manager" } });
    const events = await roleEvents(staff.id);
    expect(events.map((e) => [(e.before as { role: string }).role, (e.after as { role: string }).role])).toEqual([
      ["staff", "admin"],
      ["admin", "manager"],
    ]);
  });

  it("asks for the password once the sign-in is over five minutes old; a wrong one changes nothing", async () => {
    const { cookie } = await loginAs("admin");
    await ageSession(cookie, 10);
    const staff = await createUser({ role: "staff" });
    const asked = await patchRole(staff.id, cookie, { role: "manager" });
    expect(asked).toMatchObject({
      status: 403,
      body: { message: "Please enter your current password to confirm this change" },
    });
    const wrong = await patchRole(staff.id, cookie, { role: "manager", password: "not-the-password" });
    expect(wrong).toMatchObject({ status: 400, body: { message: "Password is incorrect" } });
    expect((await getUserById(staff.id))!.role).toBe("staff");
    expect(await roleEvents(staff.id)).toHaveLength(0);
    const right = await patchRole(staff.id, cookie, { role: "manager", password: TEST_PASSWORD });
    expect(right).toMatchObject({ status: 200, body: { role: "manager" } });
  });

  it("refuses bad input, the caller's own account, deleted and frozen users and an unchanged role", async () => {
    const { user: admin, cookie } = await loginAs("admin");
    const staff = await createUser({ role: "staff" });
    const frozen = await createUser({ role: "manager", status: "frozen" });
    const deleted = await createUser({ role: "manager", status: "deleted" });
    expect(await patchRole(staff.id, cookie, { role: "owner" })).toMatchObject({
      status: 400,
      body: { message: "Role must be Staff, Manager or Admin" },
    });
    expect(await patchRole(staff.id, cookie, {})).toMatchObject({ status: 400 });
    expect(await patchRole(staff.id, cookie, { role: "staff" })).toMatchObject({
      status: 400,
      body: { message: `${staff.email} already has the Staff role` },
    });
    expect(await patchRole(admin.id, cookie, { role: "staff" })).toMatchObject({ status: 400 });
    expect(await patchRole(frozen.id, cookie, { role: "staff" })).toMatchObject({ status: 409 });
    expect(await patchRole(deleted.id, cookie, { role: "staff" })).toMatchObject({ status: 409 });
    expect(await patchRole("not-a-uuid", cookie, { role: "staff" })).toMatchObject({ status: 404 });
    expect(await patchRole(ID, cookie, { role: "staff" })).toMatchObject({ status: 404 });
    const bad = call(
      roleApi.action,
      makeRequest(`/api/admin/users/${staff.id}/role`, { method: "PATCH", cookie, json: "[1]" }),
      { id: staff.id },
    );
    expect(await bad).toMatchObject({ status: 400 });
    expect((await getUserById(admin.id))!.role).toBe("admin");
    expect((await getUserById(staff.id))!.role).toBe("staff");
    expect((await getUserById(frozen.id))!.role).toBe("manager");
  });

  it("two admins demoting each other: the second is no longer an admin, so an admin always remains", async () => {
    const db = await getDb();
    const a = await createUser({ role: "admin" });
    const b = await createUser({ role: "admin" });
    // This file's other admins step aside so that a and b are the only active admins.
    await db
      .update(schema.users)
      .set({ status: "frozen" })
      .where(and(eq(schema.users.role, "admin"), eq(schema.users.status, "active")));
    await db.update(schema.users).set({ status: "active" }).where(eq(schema.users.id, a.id));
    await db.update(schema.users).set({ status: "active" }).where(eq(schema.users.id, b.id));
    const [first, second] = await Promise.all([changeUserRole(a, b.id, "staff"), changeUserRole(b, a.id, "staff")]);
    const outcomes = [first, second].map((r) => (r.ok ? 200 : r.status)).sort();
    expect(outcomes).toEqual([200, 403]);
    const admins = await db
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(and(eq(schema.users.role, "admin"), eq(schema.users.status, "active")));
    expect(admins).toHaveLength(1);
  });
});

describe("the Change Role form", () => {
  it("asks for the password when the sign-in is old, then changes the role and says so", async () => {
    const { cookie } = await loginAs("admin");
    await ageSession(cookie, 10);
    const staff = await createUser({ role: "staff" });
    const page = await call(rolePage.loader, makeRequest(`/settings/users/${staff.id}/role`, { cookie }), {
      id: staff.id,
    });
    expect(page).toMatchObject({ status: 200, body: { needsPassword: true, user: { role: "staff" } } });
    const post = (form: Record<string, string>) =>
      call(rolePage.action, makeRequest(`/settings/users/${staff.id}/role`, { method: "POST", cookie, form }), {
        id: staff.id,
      });
    const asked = await post({ role: "admin" });
    expect(asked.status).toBe(403);
    expect(JSON.stringify(asked.body)).toContain("Please enter your current password to confirm this change");
    expect((await getUserById(staff.id))!.role).toBe("staff");
    const done = await post({ role: "admin", password: TEST_PASSWORD });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/settings");
    expect(await toastOf(done)).toEqual({
      title: "Role changed",
      description: `${staff.email} now has the Admin role.`,
    });
    expect((await getUserById(staff.id))!.role).toBe("admin");
  });

  it("the role switcher's refusal points at Change Role", async () => {
    const db = await getDb();
    await db.update(schema.users).set({ status: "frozen" }).where(eq(schema.users.role, "admin"));
    const { cookie } = await loginAs("admin");
    const res = await call(
      switcher.action,
      makeRequest("/settings/role", { method: "POST", cookie, form: { role: "staff", redirectTo: "/settings" } }),
    );
    expect((await toastOf(res))?.description).toContain("Change Role");
  });
});

describe("reset password: post, then a page that shows the password once", () => {
  it("redirects; the page shows the password that signs in, and a reload says it was already shown", async () => {
    const { cookie } = await loginAs("admin");
    const staff = await createUser({ role: "staff" });
    const res = await call(
      resetPage.action,
      makeRequest(`/settings/users/${staff.id}/reset`, { method: "POST", cookie }),
      { id: staff.id },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/settings/users/${staff.id}/temporary-password`);
    const carried = res.headers.get("Set-Cookie")!;
    expect(carried).toContain(`Path=/settings/users/${staff.id}`);
    expect(carried).toContain("HttpOnly");
    const passwordCookie = carried.split(";")[0];
    const show = (extra: string) =>
      call(
        shownPage.loader,
        makeRequest(`/settings/users/${staff.id}/temporary-password`, { cookie: `${cookie}; ${extra}` }),
        { id: staff.id },
      );
    const shown = await show(passwordCookie);
    const { temporaryPassword } = (shown.body as { reset: { temporaryPassword: string } }).reset;
    expect(temporaryPassword).toMatch(/^\S{16}$/);
    // The cookie never holds the password in clear.
    expect(decodeURIComponent(passwordCookie)).not.toContain(temporaryPassword);
    expect(shown.headers.get("Set-Cookie")).toMatch(/Max-Age=0/);
    // A reload whose browser still sent the cookie would see it again; the cleared one reads as shown.
    expect(await show("")).toMatchObject({ status: 200, body: { reset: null, user: { email: staff.email } } });
    const login = await call(
      loginApi.action,
      makeRequest("/api/auth/password/login", {
        method: "POST",
        json: { email: staff.email, password: temporaryPassword },
        headers: { "X-Forwarded-For": "198.51.100.7" },
      }),
    );
    expect(login.status).toBe(200);
  });

  it("a cookie made for another user shows nothing", async () => {
    const { cookie } = await loginAs("admin");
    const staff = await createUser({ role: "staff" });
    const other = await createUser({ role: "staff" });
    const res = await call(
      resetPage.action,
      makeRequest(`/settings/users/${staff.id}/reset`, { method: "POST", cookie }),
      { id: staff.id },
    );
    const passwordCookie = res.headers.get("Set-Cookie")!.split(";")[0];
    const shown = await call(
      shownPage.loader,
      makeRequest(`/settings/users/${other.id}/temporary-password`, { cookie: `${cookie}; ${passwordCookie}` }),
      { id: other.id },
    );
    expect(shown).toMatchObject({ status: 200, body: { reset: null } });
  });
});

describe("bulk calls say why each id failed", () => {
  it("lists the reason of each failure in JSON and in the HTML toast", async () => {
    const { user: admin, cookie } = await loginAs("admin");
    const staff = await createUser({ role: "staff" });
    const deleted = await createUser({ role: "staff", status: "deleted" });
    const res = await call(
      bulkStatusApi.action,
      makeRequest("/api/admin/users/bulk/status", {
        method: "PATCH",
        cookie,
        json: { userIds: [staff.id, deleted.id, admin.id, ID], status: "frozen" },
      }),
    );
    expect(res).toMatchObject({
      status: 200,
      body: {
        success: [staff.id],
        failed: [deleted.id, admin.id, ID],
        failures: [
          { id: deleted.id, label: deleted.email, reason: "already deleted" },
          { id: admin.id, label: admin.email, reason: "that is your own account" },
          { id: ID, label: ID, reason: "no such user" },
        ],
        message: "1 user updated, 3 failed",
      },
    });
    const html = await call(
      bulkPage.action,
      makeRequest("/settings/users/bulk", {
        method: "POST",
        cookie,
        form: { intent: "unfreeze", userIds: deleted.id },
      }),
    );
    expect(await toastOf(html)).toEqual({
      title: "0 users updated, 1 failed",
      description: `Not changed: ${deleted.email}: already deleted.`,
      variant: "destructive",
    });
  });

  it("the confirmation drops deleted users and names a user without a name by e-mail once", async () => {
    const { cookie } = await loginAs("admin");
    const db = await getDb();
    const plain = await createUser({ role: "staff" });
    await db.update(schema.users).set({ firstName: null, lastName: null }).where(eq(schema.users.id, plain.id));
    const deleted = await createUser({ role: "staff", status: "deleted" });
    const page = await call(
      bulkPage.loader,
      makeRequest(`/settings/users/bulk?intent=freeze&userIds=${plain.id}&userIds=${deleted.id}`, { cookie }),
    );
    expect(page).toMatchObject({ status: 200 });
    const users = (page.body as { users: { id: string; displayName: string; email: string }[] }).users;
    expect(users.map((u) => u.id)).toEqual([plain.id]);
    expect(users[0].displayName).toBe(plain.email);
    const onlyDeleted = await call(
      bulkPage.loader,
      makeRequest(`/settings/users/bulk?intent=freeze&userIds=${deleted.id}`, { cookie }),
    );
    expect(onlyDeleted.status).toBe(302);
  });
});
