import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { BCRYPT_COST, bcryptCost } from "./password-cost.server";

describe("bcrypt cost", () => {
  it("is the full cost in production, whatever TEST_BCRYPT_COST says", () => {
    expect(bcryptCost({ NODE_ENV: "production", TEST_BCRYPT_COST: "4" })).toBe(BCRYPT_COST);
    expect(bcryptCost({ NODE_ENV: "production", TEST_BCRYPT_COST: "nonsense" })).toBe(BCRYPT_COST);
    expect(BCRYPT_COST).toBe(10);
  });

  it("is the full cost in development and when NODE_ENV is unset", () => {
    expect(bcryptCost({ NODE_ENV: "development", TEST_BCRYPT_COST: "4" })).toBe(BCRYPT_COST);
    expect(bcryptCost({ TEST_BCRYPT_COST: "4" })).toBe(BCRYPT_COST);
    expect(bcryptCost({ NODE_ENV: "test" })).toBe(BCRYPT_COST);
  });

  it("follows TEST_BCRYPT_COST in a test run, and refuses a value outside 4-10", () => {
    expect(bcryptCost({ NODE_ENV: "test", TEST_BCRYPT_COST: "4" })).toBe(4);
    expect(() => bcryptCost({ NODE_ENV: "test", TEST_BCRYPT_COST: "3" })).toThrow(/TEST_BCRYPT_COST/);
    expect(() => bcryptCost({ NODE_ENV: "test", TEST_BCRYPT_COST: "12" })).toThrow(/TEST_BCRYPT_COST/);
    expect(() => bcryptCost({ NODE_ENV: "test", TEST_BCRYPT_COST: "4.5" })).toThrow(/TEST_BCRYPT_COST/);
  });

  it("is what a new hash carries", async () => {
    const hash = await bcrypt.hash("a password", bcryptCost({ NODE_ENV: "test", TEST_BCRYPT_COST: "5" }));
    expect(bcrypt.getRounds(hash)).toBe(5);
  });
});
