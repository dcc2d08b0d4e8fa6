import { afterEach, describe, expect, it } from "vitest";
import { resetEnv } from "~/utils/env.server";
import { bulkMessage, canSwitchRole, isUuid } from "./admin-users.server";

describe("bulkMessage", () => {
  it("uses the spec's wording, singular and plural", () => {
    expect(bulkMessage({ success: ["a", "b"], failed: [] }, "updated")).toBe("2 users updated successfully");
    expect(bulkMessage({ success: ["a"], failed: [] }, "deleted")).toBe("1 user deleted successfully");
    expect(bulkMessage({ success: ["a", "b"], failed: ["c"] }, "updated")).toBe("2 users updated, 1 failed");
    expect(bulkMessage({ success: [], failed: ["c", "d"] }, "deleted")).toBe("0 users deleted, 2 failed");
  });
});

describe("isUuid", () => {
  it("accepts only uuids, so a bad id is a 404 and never a database error", () => {
    expect(isUuid("0b6f1c9e-8a53-4c4e-9d55-3f1f8a2b7c10")).toBe(true);
    for (const bad of ["1", "", "bulk", "0b6f1c9e-8a53-4c4e-9d55-3f1f8a2b7c1", null, 42])
      expect(isUuid(bad)).toBe(false);
  });
});

describe("canSwitchRole", () => {
  afterEach(() => {
    delete process.env.OWNER_EMAIL;
    resetEnv();
  });

  it("is for admins, and for the owner e-mail whatever the role", () => {
    expect(canSwitchRole({ role: "admin", email: "a@example.test" })).toBe(true);
    expect(canSwitchRole({ role: "manager", email: "owner@example.test" })).toBe(false);
    process.env.OWNER_EMAIL = " Owner@Example.test ";
    resetEnv();
    expect(canSwitchRole({ role: "manager", email: "owner@example.test" })).toBe(true);
    expect(canSwitchRole({ role: "staff", email: "someone@example.test" })).toBe(false);
  });
});
