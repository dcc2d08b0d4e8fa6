import { describe, expect, it } from "vitest";
import { PHOTO_LONG_SIDE, scaledSize } from "./photo-scale";

describe("scaledSize", () => {
  it("brings the long side of a camera photo down to 1600 px, keeping its shape", () => {
    expect(PHOTO_LONG_SIDE).toBe(1600);
    expect(scaledSize(4000, 3000)).toEqual({ width: 1600, height: 1200 });
    expect(scaledSize(3000, 4000)).toEqual({ width: 1200, height: 1600 });
    expect(scaledSize(4032, 1908)).toEqual({ width: 1600, height: 757 });
  });

  it("never makes a small photo larger, nor a side nought", () => {
    expect(scaledSize(1200, 900)).toEqual({ width: 1200, height: 900 });
    expect(scaledSize(1600, 1600)).toEqual({ width: 1600, height: 1600 });
    expect(scaledSize(100_000, 10)).toEqual({ width: 1600, height: 1 });
    expect(scaledSize(0, 0)).toEqual({ width: 1, height: 1 });
  });
});
