import { describe, expect, it } from "vitest";
import * as changeRoute from "../../app/routes/api.auth.password.change";
import * as loginRoute from "../../app/routes/api.auth.password.login";
import * as logoutRoute from "../../app/routes/api.auth.password.logout";
import * as userRoute from "../../app/routes/api.auth.user";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

const cookieOf = (headers: Headers) => headers.get("Set-Cookie")?.split(";")[0] ?? "";

describe("JSON auth calls", () => {
  it("GET /api/auth/user is 401 signed out and the user when signed in", async () => {
    expect((await call(userRoute.loader, makeRequest("/api/auth/user"))).status).toBe(401);
    const { user, cookie } = await loginAs("manager");
    const res = await call(userRoute.loader, makeRequest("/api/auth/user", { cookie }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, role: "manager", mustChangePassword: 0 });
    expect(res.body).not.toHaveProperty("password");
  });

  it("logs in with the spec's messages and rotates the session id", async () => {
    const user = await createUser({ role: "staff", mustChangePassword: true });
    const missing = await call(
      loginRoute.action,
      makeRequest("/api/auth/password/login", { method: "POST", json: { email: user.email } }),
    );
    expect(missing).toMatchObject({ status: 400, body: { message: "Please enter both email and password" } });
    const wrong = await call(
      loginRoute.action,
      makeRequest("/api/auth/password/login", { method: "POST", json: { email: user.email, password: "nope-nope" } }),
    );
    expect(wrong).toMatchObject({ status: 401, body: { message: "Invalid email or password" } });
    const notJson = await call(
      loginRoute.action,
      makeRequest("/api/auth/password/login", { method: "POST", json: "{oops" }),
    );
    expect(notJson.status).toBe(400);

    const ok = await call(
      loginRoute.action,
      makeRequest("/api/auth/password/login", {
        method: "POST",
        json: { email: user.email.toUpperCase(), password: user.plainPassword },
      }),
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ requiresTOTP: false, mustChangePassword: 1 });
    const first = cookieOf(ok.headers);
    const again = await call(
      loginRoute.action,
      makeRequest("/api/auth/password/login", {
        method: "POST",
        cookie: first,
        json: { email: user.email, password: user.plainPassword },
      }),
    );
    const second = cookieOf(again.headers);
    expect(second).not.toBe(first);
    // The old id no longer works.
    expect((await call(userRoute.loader, makeRequest("/api/auth/user", { cookie: first }))).status).toBe(401);
    expect((await call(userRoute.loader, makeRequest("/api/auth/user", { cookie: second }))).status).toBe(200);
  });

  it("changes the password with length checked before match, and ends other sessions", async () => {
    const user = await createUser({ role: "staff", mustChangePassword: true });
    const login = async () =>
      cookieOf(
        (
          await call(
            loginRoute.action,
            makeRequest("/api/auth/password/login", {
              method: "POST",
              json: { email: user.email, password: user.plainPassword },
            }),
          )
        ).headers,
      );
    const mine = await login();
    const other = await login();
    const post = (json: unknown) =>
      call(changeRoute.action, makeRequest("/api/auth/password/change", { method: "POST", cookie: mine, json }));
    expect(await post({ currentPassword: user.plainPassword, newPassword: "short" })).toMatchObject({
      status: 400,
      body: { message: "Password too short: Password must be at least 8 characters" },
    });
    expect(await post({ currentPassword: "wrong-password", newPassword: "a-new-password" })).toMatchObject({
      status: 400,
    });
    expect(await post({ currentPassword: user.plainPassword, newPassword: "a-new-password" })).toMatchObject({
      status: 200,
    });
    const me = await call(userRoute.loader, makeRequest("/api/auth/user", { cookie: mine }));
    expect(me.body).toMatchObject({ mustChangePassword: 0 });
    expect((await call(userRoute.loader, makeRequest("/api/auth/user", { cookie: other }))).status).toBe(401);
  });

  it("logout destroys the session row", async () => {
    const { cookie } = await loginAs("admin");
    const res = await call(logoutRoute.action, makeRequest("/api/auth/password/logout", { method: "POST", cookie }));
    expect(res.status).toBe(200);
    expect((await call(userRoute.loader, makeRequest("/api/auth/user", { cookie }))).status).toBe(401);
  });

  it("a user frozen after sign-in is signed out at the next request", async () => {
    const { user, cookie } = await loginAs("staff");
    const { getDb, schema } = await import("../../app/db.server");
    const { eq } = await import("drizzle-orm");
    const db = await getDb();
    await db.update(schema.users).set({ status: "frozen" }).where(eq(schema.users.id, user.id));
    expect((await call(userRoute.loader, makeRequest("/api/auth/user", { cookie }))).status).toBe(401);
  });
});
