import { describe, expect, it } from "vitest";
import { safeParseFields } from "./fields";
import { NEW_DELIVERY_FORM_CONSTRAINT, NewDeliverySchema } from "./delivery";
import { TRUCK_FORM_CONSTRAINT, TruckSchema } from "./trucks";

const parse = (input: Record<string, unknown>) => safeParseFields(TruckSchema, input);
const errors = (input: Record<string, unknown>) => {
  const result = parse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("the truck schema (docs/decisions/1200)", () => {
  it("reads a plate as shown, the optional fields trimmed, the tare in whole kilograms", () => {
    expect(
      parse({ plate: " kja-456-ab ", transporter: " Musa Haulage ", phone: "0803 000 0000", usualTareKg: "12,500" }),
    ).toMatchObject({
      success: true,
      data: { plate: "KJA-456-AB", transporter: "Musa Haulage", phone: "0803 000 0000", usualTareKg: 12500 },
    });
    expect(parse({ plate: "LAG 1", usualTareKg: 9000 })).toMatchObject({ success: true, data: { usualTareKg: 9000 } });
    expect(parse({ plate: "LAG 1", transporter: "", phone: "", usualTareKg: "" })).toMatchObject({
      success: true,
      data: { transporter: undefined, phone: undefined, usualTareKg: undefined },
    });
    expect(parse({ plate: "LAG 1", usualTareKg: null })).toMatchObject({ success: true, data: { usualTareKg: null } });
  });

  it("refuses a missing or malformed plate, naming the field", () => {
    expect(errors({})).toMatchObject({ plate: "Plate is required" });
    expect(errors({ plate: "LAG_123" }).plate).toMatch(/^Plate must be 2 to 20 letters, digits, spaces or dashes/);
    expect(errors({ plate: "X" }).plate).toMatch(/^Plate must be 2 to 20/);
    expect(errors({ plate: 123 }).plate).toMatch(/^Plate must be 2 to 20/);
    expect(errors({ plate: "KJA\u200B123" }).plate).toBe(
      "Plate must not contain invisible or text-direction characters",
    );
  });

  it("refuses a tare that is not 1 to 200,000 whole kilograms, and text over its length", () => {
    for (const bad of ["0", "200001", "12.5", "-3", "abc", 1.5, "1e4"]) {
      expect(errors({ plate: "AB", usualTareKg: bad }).usualTareKg, String(bad)).toMatch(/^Usual tare must be/);
    }
    expect(errors({ plate: "AB", usualTareKg: "200000" })).toEqual({});
    expect(errors({ plate: "AB", transporter: "x".repeat(201) }).transporter).toBe(
      "Transporter must be at most 200 characters",
    );
    expect(errors({ plate: "AB", phone: "1".repeat(101) }).phone).toBe("Phone must be at most 100 characters");
  });

  it("gives the browser the plate's pattern and the tare's range", () => {
    expect(TRUCK_FORM_CONSTRAINT.plate).toMatchObject({ required: true, pattern: expect.any(String) });
    expect(TRUCK_FORM_CONSTRAINT.usualTareKg).toEqual({ min: 1, max: 200000, step: 1 });
    const pattern = new RegExp(`^(?:${TRUCK_FORM_CONSTRAINT.plate.pattern})$`, "v");
    for (const ok of ["LAG 123 XY", "kja-456-ab", " AB ", "-AB"]) expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ["LAG_123", "--", "LAG/1", "AB\t"]) expect(pattern.test(bad), bad).toBe(false);
  });

  it("reads New Delivery's Truck No. the same way, optional", () => {
    const delivery = { agentId: "1", tons: "1", location: "Yard" };
    expect(safeParseFields(NewDeliverySchema, { ...delivery, truckNo: " lag  123 xy" })).toMatchObject({
      success: true,
      data: { truckNo: "LAG 123 XY" },
    });
    expect(safeParseFields(NewDeliverySchema, { ...delivery, truckNo: "" })).toMatchObject({
      success: true,
      data: { truckNo: undefined },
    });
    const bad = safeParseFields(NewDeliverySchema, { ...delivery, truckNo: "LAG#1" });
    expect(bad.success ? null : bad.error.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["truckNo", "Truck No. must be 2 to 20 letters, digits, spaces or dashes (like LAG 123 XY)"],
    ]);
    expect(NEW_DELIVERY_FORM_CONSTRAINT.truckNo).toMatchObject({ pattern: expect.any(String) });
    expect(NEW_DELIVERY_FORM_CONSTRAINT.truckNo.required).toBeUndefined();
  });
});
