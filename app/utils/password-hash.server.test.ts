import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { bcryptCompare, bcryptHash } from "./password-hash.server";

describe("bcrypt on worker threads", () => {
  it("hashes with the same scheme: a worker's hash verifies with bcryptjs itself, and the reverse", async () => {
    const hash = await bcryptHash("correct horse", 4);
    expect(hash).toMatch(/^\$2[aby]\$04\$/);
    expect(await bcrypt.compare("correct horse", hash)).toBe(true);
    const existing = await bcrypt.hash("stored before the change", 4);
    expect(await bcryptCompare("stored before the change", existing)).toBe(true);
    expect(await bcryptCompare("stored before the chang", existing)).toBe(false);
  });

  it("answers concurrent calls each with its own result", async () => {
    const hashes = await Promise.all(["a1", "b2", "c3", "d4"].map((p) => bcryptHash(p, 4)));
    const checks = await Promise.all(
      hashes.flatMap((h, i) => [bcryptCompare(["a1", "b2", "c3", "d4"][i], h), bcryptCompare("wrong", h)]),
    );
    expect(checks).toEqual([true, false, true, false, true, false, true, false]);
  });

  it("answers a malformed stored hash as bcryptjs does (no match)", async () => {
    expect(await bcrypt.compare("x", "not-a-hash")).toBe(false);
    expect(await bcryptCompare("x", "not-a-hash")).toBe(false);
  });
});
