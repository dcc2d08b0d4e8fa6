import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { getUserById, hashPassword, verifyPassword } from "../../app/models/user.server";
import { createUser } from "../factories";

// The database tests run with TEST_BCRYPT_COST=4 (vitest.config.ts, decision 0840): check that
// it reaches the hashes the models make, and that such hashes sign in like any other.
describe("password hashes in the database tests", () => {
  it("are made at the test cost, and verify", async () => {
    expect(process.env.NODE_ENV).toBe("test");
    const user = await createUser({ password: "a-test-password-1" });
    const stored = (await getUserById(user.id))!.password;
    expect(bcrypt.getRounds(stored)).toBe(Number(process.env.TEST_BCRYPT_COST));
    expect(bcrypt.getRounds(await hashPassword("another-password-2"))).toBe(4);
    expect((await verifyPassword(user.email, "a-test-password-1")).ok).toBe(true);
    expect((await verifyPassword(user.email, "a-wrong-password")).ok).toBe(false);
  });
});
