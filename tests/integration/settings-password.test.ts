import { describe, expect, it } from "vitest";
import * as passwordPage from "../../app/routes/_app.settings.password";
import { countSessions, createSession } from "../../app/utils/session.server";
import { describeAccess } from "../access";
import { loginAs } from "../factories";
import { call, makeRequest } from "../http";

describeAccess("the Change Password dialog is for every signed-in user", [
  {
    name: "change password form",
    handler: passwordPage.action,
    method: "POST",
    path: "/settings/password",
    form: {},
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
]);

describe("Change Password from Settings", () => {
  it("checks the rules, then changes the password and ends the other sessions only", async () => {
    const { user, cookie } = await loginAs("staff");
    await createSession(new Request("http://localhost/"), user.id);
    expect(await countSessions(user.id)).toBe(2);
    const post = (form: Record<string, string>) =>
      call(passwordPage.action, makeRequest("/settings/password", { method: "POST", cookie, form }));

    const short = await post({ currentPassword: user.plainPassword, newPassword: "short", confirmPassword: "short" });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain("Password must be at least 8 characters");
    const mismatch = await post({
      currentPassword: user.plainPassword,
      newPassword: "long-enough-1",
      confirmPassword: "long-enough-2",
    });
    expect(JSON.stringify(mismatch.body)).toContain("Passwords don't match");
    const wrong = await post({
      currentPassword: "not-my-password",
      newPassword: "long-enough-1",
      confirmPassword: "long-enough-1",
    });
    expect(wrong.status).toBe(400);
    // The reason sits under its field; no summary repeats it (docs/decisions/0011).
    expect(wrong.body).toMatchObject({
      result: { error: { currentPassword: [expect.stringContaining("Please check your current password")] } },
    });
    expect(await countSessions(user.id)).toBe(2);

    const ok = await post({
      currentPassword: user.plainPassword,
      newPassword: "long-enough-1",
      confirmPassword: "long-enough-1",
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/settings");
    expect(await countSessions(user.id)).toBe(1);
  });
});
