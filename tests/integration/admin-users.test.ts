import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import * as bulkRoute from "../../app/routes/api.admin.users.bulk";
import * as bulkStatusRoute from "../../app/routes/api.admin.users.bulk.status";
import * as usersRoute from "../../app/routes/api.admin.users";
import * as userRoute from "../../app/routes/api.admin.users.$id";
import * as resetRoute from "../../app/routes/api.admin.users.$id.reset-password";
import * as statusRoute from "../../app/routes/api.admin.users.$id.status";
import * as loginRoute from "../../app/routes/api.auth.password.login";
import * as meRoute from "../../app/routes/api.auth.user";
import * as newUserPage from "../../app/routes/_app.settings.users.new";
import * as resetPage from "../../app/routes/_app.settings.users.$id.reset";
import * as statusPage from "../../app/routes/_app.settings.users.$id.status";
import * as deletePage from "../../app/routes/_app.settings.users.$id.delete";
import * as bulkPage from "../../app/routes/_app.settings.users.bulk";
import * as passwordPage from "../../app/routes/_app.settings.password";
import { countSessions } from "../../app/utils/session.server";
import { describeAccess } from "../access";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

const ID = "00000000-0000-4000-8000-000000000001";

describeAccess("admin user calls are for admins only", [
  { name: "list", handler: usersRoute.loader, method: "GET", path: "/api/admin/users", allowed: ["admin"] },
  {
    name: "create",
    handler: usersRoute.action,
    method: "POST",
    path: "/api/admin/users",
    json: {},
    allowed: ["admin"],
  },
  {
    name: "status",
    handler: statusRoute.action,
    method: "PATCH",
    path: `/api/admin/users/${ID}/status`,
    params: { id: ID },
    json: { status: "frozen" },
    allowed: ["admin"],
  },
  {
    name: "delete",
    handler: userRoute.action,
    method: "DELETE",
    path: `/api/admin/users/${ID}`,
    params: { id: ID },
    allowed: ["admin"],
  },
  {
    name: "reset",
    handler: resetRoute.action,
    method: "POST",
    path: `/api/admin/users/${ID}/reset-password`,
    params: { id: ID },
    allowed: ["admin"],
  },
  {
    name: "bulk status",
    handler: bulkStatusRoute.action,
    method: "PATCH",
    path: "/api/admin/users/bulk/status",
    json: { userIds: [ID], status: "frozen" },
    allowed: ["admin"],
  },
  {
    name: "bulk delete",
    handler: bulkRoute.action,
    method: "DELETE",
    path: "/api/admin/users/bulk",
    json: { userIds: [ID] },
    allowed: ["admin"],
  },
  {
    name: "add user page",
    handler: newUserPage.loader,
    method: "GET",
    path: "/settings/users/new",
    allowed: ["admin"],
    page: true,
  },
  {
    name: "add user form",
    handler: newUserPage.action,
    method: "POST",
    path: "/settings/users/new",
    form: {},
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reset page",
    handler: resetPage.loader,
    method: "GET",
    path: `/settings/users/${ID}/reset`,
    params: { id: ID },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reset form",
    handler: resetPage.action,
    method: "POST",
    path: `/settings/users/${ID}/reset`,
    params: { id: ID },
    form: {},
    allowed: ["admin"],
    page: true,
  },
  {
    name: "status form",
    handler: statusPage.action,
    method: "POST",
    path: `/settings/users/${ID}/status`,
    params: { id: ID },
    form: { status: "frozen" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "delete page",
    handler: deletePage.loader,
    method: "GET",
    path: `/settings/users/${ID}/delete`,
    params: { id: ID },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "delete form",
    handler: deletePage.action,
    method: "POST",
    path: `/settings/users/${ID}/delete`,
    params: { id: ID },
    form: {},
    allowed: ["admin"],
    page: true,
  },
  {
    name: "bulk page",
    handler: bulkPage.loader,
    method: "GET",
    path: `/settings/users/bulk?intent=freeze&userIds=${ID}`,
    allowed: ["admin"],
    page: true,
  },
  {
    name: "bulk form",
    handler: bulkPage.action,
    method: "POST",
    path: "/settings/users/bulk",
    form: { intent: "freeze", userIds: ID },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "change password page",
    handler: passwordPage.loader,
    method: "GET",
    path: "/settings/password",
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
]);

const login = (email: string, password: string) =>
  call(loginRoute.action, makeRequest("/api/auth/password/login", { method: "POST", json: { email, password } }));
const cookieOf = (headers: Headers) => headers.get("Set-Cookie")?.split(";")[0] ?? "";

describe("user management", () => {
  it("creates a staff user with a random temporary password that must be changed", async () => {
    const { cookie } = await loginAs("admin");
    const missing = await call(
      usersRoute.action,
      makeRequest("/api/admin/users", { method: "POST", cookie, json: { email: "x@example.test" } }),
    );
    expect(missing).toMatchObject({ status: 400, body: { message: "Email and role are required" } });
    const adminRole = await call(
      usersRoute.action,
      makeRequest("/api/admin/users", { method: "POST", cookie, json: { email: "x@example.test", role: "admin" } }),
    );
    expect(adminRole.status).toBe(400);
    const created = await call(
      usersRoute.action,
      makeRequest("/api/admin/users", {
        method: "POST",
        cookie,
        json: { email: "New.Staff@Example.test", role: "staff", firstName: "Ngozi" },
      }),
    );
    expect(created.status).toBe(201);
    const body = created.body as { id: string; email: string; temporaryPassword: string; mustChangePassword: number };
    expect(body.email).toBe("new.staff@example.test");
    expect(body.temporaryPassword.length).toBeGreaterThanOrEqual(12);
    expect(body.mustChangePassword).toBe(1);
    const db = await getDb();
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, body.id));
    expect(row.password).toMatch(/^\$2[aby]\$/);
    expect(row.password).not.toContain(body.temporaryPassword);
    const dup = await call(
      usersRoute.action,
      makeRequest("/api/admin/users", {
        method: "POST",
        cookie,
        json: { email: "new.staff@example.test", role: "manager" },
      }),
    );
    expect(dup.status).toBe(409);
    const signIn = await login(body.email, body.temporaryPassword);
    expect(signIn).toMatchObject({ status: 200, body: { mustChangePassword: 1 } });
    const list = await call(usersRoute.loader, makeRequest("/api/admin/users", { cookie }));
    expect((list.body as { email: string }[]).map((u) => u.email)).toContain("new.staff@example.test");
    expect(JSON.stringify(list.body)).not.toContain("$2");
  });

  it("two admins adding one e-mail at once make one user; the other hears it exists", async () => {
    const { cookie } = await loginAs("admin");
    const add = () =>
      call(
        usersRoute.action,
        makeRequest("/api/admin/users", {
          method: "POST",
          cookie,
          json: { email: "twice@example.test", role: "staff" },
        }),
      );
    const answers = await Promise.all([add(), add(), add()]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.body).toMatchObject({ message: "A user with this email already exists" });
    const db = await getDb();
    expect(await db.select().from(schema.users).where(eq(schema.users.email, "twice@example.test"))).toHaveLength(1);
  });

  it("freezing ends the user's sessions and blocks sign-in; unfreeze restores it", async () => {
    const { cookie } = await loginAs("admin");
    const staff = await createUser({ role: "staff" });
    const staffCookie = cookieOf((await login(staff.email, staff.plainPassword)).headers);
    expect(await countSessions(staff.id)).toBe(1);
    const frozen = await call(
      statusRoute.action,
      makeRequest(`/api/admin/users/${staff.id}/status`, { method: "PATCH", cookie, json: { status: "frozen" } }),
      { id: staff.id },
    );
    expect(frozen).toMatchObject({ status: 200, body: { status: "frozen" } });
    expect(await countSessions(staff.id)).toBe(0);
    expect((await call(meRoute.loader, makeRequest("/api/auth/user", { cookie: staffCookie }))).status).toBe(401);
    expect((await login(staff.email, staff.plainPassword)).status).toBe(403);
    const bad = await call(
      statusRoute.action,
      makeRequest(`/api/admin/users/${staff.id}/status`, { method: "PATCH", cookie, json: { status: "deleted" } }),
      { id: staff.id },
    );
    expect(bad.status).toBe(400);
    await call(
      statusRoute.action,
      makeRequest(`/api/admin/users/${staff.id}/status`, { method: "PATCH", cookie, json: { status: "active" } }),
      { id: staff.id },
    );
    expect((await login(staff.email, staff.plainPassword)).status).toBe(200);
  });

  it("reset gives a new temporary password and ends sessions; the old password stops working", async () => {
    const { cookie } = await loginAs("admin");
    const staff = await createUser({ role: "manager" });
    await login(staff.email, staff.plainPassword);
    const res = await call(
      resetRoute.action,
      makeRequest(`/api/admin/users/${staff.id}/reset-password`, { method: "POST", cookie }),
      { id: staff.id },
    );
    expect(res.status).toBe(200);
    const { temporaryPassword } = res.body as { temporaryPassword: string };
    expect(temporaryPassword.length).toBeGreaterThanOrEqual(12);
    expect(await countSessions(staff.id)).toBe(0);
    expect((await login(staff.email, staff.plainPassword)).status).toBe(401);
    expect(await login(staff.email, temporaryPassword)).toMatchObject({ status: 200, body: { mustChangePassword: 1 } });
  });

  it("delete is a status, ends sessions, and deleted users get no freeze or unfreeze", async () => {
    const { cookie } = await loginAs("admin");
    const staff = await createUser({ role: "staff" });
    await login(staff.email, staff.plainPassword);
    const res = await call(
      userRoute.action,
      makeRequest(`/api/admin/users/${staff.id}`, { method: "DELETE", cookie }),
      { id: staff.id },
    );
    expect(res.status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, staff.id));
    expect(row.status).toBe("deleted");
    expect(await countSessions(staff.id)).toBe(0);
    expect((await login(staff.email, staff.plainPassword)).status).toBe(403);
    const unfreeze = await call(
      statusRoute.action,
      makeRequest(`/api/admin/users/${staff.id}/status`, { method: "PATCH", cookie, json: { status: "active" } }),
      { id: staff.id },
    );
    expect(unfreeze.status).toBe(409);
    const notFound = await call(userRoute.action, makeRequest("/api/admin/users/nope", { method: "DELETE", cookie }), {
      id: "nope",
    });
    expect(notFound.status).toBe(404);
  });

  it("an admin cannot act on their own account, singly or in bulk", async () => {
    const { user: admin, cookie } = await loginAs("admin");
    // The id as stored, and in upper case: PostgreSQL reads a uuid in either (it once found the
    // admin's own row and froze it).
    for (const id of [admin.id, admin.id.toUpperCase()]) {
      for (const [route, method, path] of [
        [statusRoute, "PATCH", `/api/admin/users/${id}/status`],
        [userRoute, "DELETE", `/api/admin/users/${id}`],
        [resetRoute, "POST", `/api/admin/users/${id}/reset-password`],
      ] as const) {
        const res = await call(route.action, makeRequest(path, { method, cookie, json: { status: "frozen" } }), {
          id,
        });
        expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
      }
    }
    const [own] = await (await getDb()).select().from(schema.users).where(eq(schema.users.id, admin.id));
    expect(own.status).toBe("active");
    const a = await createUser({ role: "staff" });
    const b = await createUser({ role: "manager" });
    const frozen = await call(
      bulkStatusRoute.action,
      makeRequest("/api/admin/users/bulk/status", {
        method: "PATCH",
        cookie,
        json: { userIds: [a.id, admin.id, b.id], status: "frozen" },
      }),
    );
    expect(frozen).toMatchObject({
      status: 200,
      body: { success: [a.id, b.id], failed: [admin.id], message: "2 users updated, 1 failed" },
    });
    const deleted = await call(
      bulkRoute.action,
      makeRequest("/api/admin/users/bulk", { method: "DELETE", cookie, json: { userIds: [a.id, admin.id, "junk"] } }),
    );
    expect(deleted).toMatchObject({ status: 200, body: { success: [a.id], failed: [admin.id, "junk"] } });
    const again = await call(
      bulkStatusRoute.action,
      makeRequest("/api/admin/users/bulk/status", {
        method: "PATCH",
        cookie,
        json: { userIds: [b.id], status: "active" },
      }),
    );
    expect(again.body).toMatchObject({ message: "1 user updated successfully" });
    const empty = await call(
      bulkRoute.action,
      makeRequest("/api/admin/users/bulk", { method: "DELETE", cookie, json: { userIds: [] } }),
    );
    expect(empty.status).toBe(400);
    const db = await getDb();
    const [me] = await db.select().from(schema.users).where(eq(schema.users.id, admin.id));
    expect(me.status).toBe("active");
  });

  it("the HTML bulk form freezes the checked users and reports in a toast", async () => {
    const { cookie } = await loginAs("admin");
    const a = await createUser({ role: "staff" });
    const b = await createUser({ role: "staff" });
    const confirm = await call(
      bulkPage.loader,
      makeRequest(`/settings/users/bulk?intent=freeze&userIds=${a.id}&userIds=${b.id}`, { cookie }),
    );
    expect(confirm.status).toBe(200);
    expect((confirm.body as { users: unknown[] }).users).toHaveLength(2);
    const body = new URLSearchParams([
      ["intent", "freeze"],
      ["userIds", a.id],
      ["userIds", b.id],
    ]);
    const request = new Request("http://localhost/settings/users/bulk", {
      method: "POST",
      body,
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    });
    const res = await call(bulkPage.action, request);
    expect(res.status).toBe(302);
    expect(decodeURIComponent(res.headers.get("Set-Cookie") ?? "")).toBeTruthy();
    const db = await getDb();
    const rows = await db.select().from(schema.users).where(eq(schema.users.status, "frozen"));
    expect(rows.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
  });

  it("the HTML add-user form returns the temporary password once", async () => {
    const { cookie } = await loginAs("admin");
    const missing = await call(
      newUserPage.action,
      makeRequest("/settings/users/new", { method: "POST", cookie, form: { email: "" } }),
    );
    expect(missing.status).toBe(400);
    const ok = await call(
      newUserPage.action,
      makeRequest("/settings/users/new", {
        method: "POST",
        cookie,
        form: { email: "yard@example.test", role: "staff" },
      }),
    );
    expect(ok.status).toBe(200);
    expect((ok.body as { created: { temporaryPassword: string } }).created.temporaryPassword).toHaveLength(16);
  });
});
