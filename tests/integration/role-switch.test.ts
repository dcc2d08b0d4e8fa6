import { afterEach, describe, expect, it } from "vitest";
import * as roleRoute from "../../app/routes/api.users.$id.role";
import * as rolePage from "../../app/routes/_app.settings.role";
import { getUserById } from "../../app/models/user.server";
import { resetEnv } from "../../app/utils/env.server";
import { readToast } from "../../app/utils/toast.server";
import { describeAccess } from "../access";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

/** The flash toast a response sets, read as the root loader would on the next request. */
async function toastOf(res: { headers: Headers }) {
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  const { toast } = await readToast(new Request("http://localhost/", { headers: { Cookie: setCookie.split(";")[0] } }));
  return toast;
}

const patch = (id: string, cookie: string, role: string) =>
  call(roleRoute.action, makeRequest(`/api/users/${id}/role`, { method: "PATCH", cookie, json: { role } }), { id });

describeAccess("the role switch form is for admins (and the owner)", [
  {
    name: "switch form",
    handler: rolePage.action,
    method: "POST",
    path: "/settings/role",
    form: { role: "staff" },
    allowed: ["admin"],
    page: true,
  },
]);

describe("PATCH /api/users/{id}/role", () => {
  afterEach(() => {
    delete process.env.OWNER_EMAIL;
    resetEnv();
  });

  it("changes only the caller's own role, and only for admins", async () => {
    const { user: admin, cookie } = await loginAs("admin");
    await createUser({ role: "admin" });
    const other = await createUser({ role: "staff" });
    expect((await patch(other.id, cookie, "admin")).status).toBe(403);
    expect((await getUserById(other.id))!.role).toBe("staff");
    expect((await patch(admin.id, cookie, "boss")).status).toBe(400);
    const ok = await patch(admin.id, cookie, "manager");
    expect(ok).toMatchObject({ status: 200, body: { role: "manager" } });
    // No longer an admin, and not the owner: no way back.
    expect((await patch(admin.id, cookie, "admin")).status).toBe(403);
    const { user: staff, cookie: staffCookie } = await loginAs("staff");
    expect((await patch(staff.id, staffCookie, "admin")).status).toBe(403);
  });

  it("refuses to leave no active admin, unless the caller is the owner", async () => {
    const { getDb, schema } = await import("../../app/db.server");
    const { eq } = await import("drizzle-orm");
    const db = await getDb();
    // This file's database: make the caller the only active admin.
    await db.update(schema.users).set({ status: "frozen" }).where(eq(schema.users.role, "admin"));
    const { user: admin, cookie } = await loginAs("admin");
    const refused = await patch(admin.id, cookie, "staff");
    expect(refused.status).toBe(409);
    expect((await getUserById(admin.id))!.role).toBe("admin");

    process.env.OWNER_EMAIL = admin.email.toUpperCase();
    resetEnv();
    expect(await patch(admin.id, cookie, "staff")).toMatchObject({ status: 200, body: { role: "staff" } });
    // The owner can always switch back.
    expect(await patch(admin.id, cookie, "admin")).toMatchObject({ status: 200, body: { role: "admin" } });
  });

  it("the HTML switch redirects with the Role Updated toast", async () => {
    await createUser({ role: "admin" });
    const { user, cookie } = await loginAs("admin");
    const res = await call(
      rolePage.action,
      makeRequest("/settings/role", { method: "POST", cookie, form: { role: "manager", redirectTo: "/settings" } }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect((await getUserById(user.id))!.role).toBe("manager");
    const js = await call(
      rolePage.action,
      makeRequest("/settings/role", { method: "POST", cookie, form: { role: "staff", js: "1" } }),
    );
    expect(js.status).toBe(403);
  });

  it("with JavaScript the switch answers ok with the toast, for the page to reload", async () => {
    await createUser({ role: "admin" });
    const { user, cookie } = await loginAs("admin");
    const res = await call(
      rolePage.action,
      makeRequest("/settings/role", { method: "POST", cookie, form: { role: "staff", js: "1" } }),
    );
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect(res.headers.get("Set-Cookie")).toBeTruthy();
    expect((await getUserById(user.id))!.role).toBe("staff");
  });

  it("with JavaScript a refused switch answers 200 with the message and the Error toast", async () => {
    const { getDb, schema } = await import("../../app/db.server");
    const { eq } = await import("drizzle-orm");
    const db = await getDb();
    // The caller is the only active admin, so stepping down is refused (409 through the API).
    await db.update(schema.users).set({ status: "frozen" }).where(eq(schema.users.role, "admin"));
    const { user, cookie } = await loginAs("admin");
    const message =
      "You are the only active admin: first make another user an admin (Settings, User Management, Change Role)";
    const res = await call(
      rolePage.action,
      makeRequest("/settings/role", {
        method: "POST",
        cookie,
        form: { role: "staff", js: "1", redirectTo: "/settings" },
      }),
    );
    // 200, not 409: single fetch revalidates the loaders only after a 2xx action, and the root
    // loader is what reads the flash toast.
    expect(res).toMatchObject({ status: 200, body: { ok: false, message } });
    expect(await toastOf(res)).toEqual({ title: "Error", description: message, variant: "destructive" });
    expect((await getUserById(user.id))!.role).toBe("admin");

    // Without JavaScript the form still redirects back with the same toast.
    const html = await call(
      rolePage.action,
      makeRequest("/settings/role", { method: "POST", cookie, form: { role: "staff", redirectTo: "/settings" } }),
    );
    expect(html.status).toBe(302);
    expect(html.headers.get("Location")).toBe("/settings");
    expect(await toastOf(html)).toEqual({ title: "Error", description: message, variant: "destructive" });
  });
});
