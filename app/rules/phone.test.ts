import { describe, expect, it } from "vitest";
import { normalizeWhatsapp, waMeNumber, whatsappUrl } from "./phone";

describe("WhatsApp numbers (docs/decisions/1260)", () => {
  it.each([
    ["+2348031234567", "+2348031234567"],
    ["+234 803 123 4567", "+2348031234567"],
    ["2348031234567", "+2348031234567"],
    ["002348031234567", "+2348031234567"],
    ["08031234567", "+2348031234567"],
    ["0803 123 4567", "+2348031234567"],
    ["0803-123-4567", "+2348031234567"],
    ["(0803) 123.4567", "+2348031234567"],
    ["  07061234567 ", "+2347061234567"],
    ["09121234567", "+2349121234567"],
  ])("takes %j as %s", (input, expected) => {
    expect(normalizeWhatsapp(input)).toBe(expected);
  });

  it.each([
    ["", "empty"],
    ["0803123456", "ten digits with the 0: one short"],
    ["080312345678", "twelve digits"],
    ["+23480312345678", "eleven digits after +234"],
    ["+234803123456", "nine digits after +234"],
    ["+23408031234567", "the trunk 0 after +234"],
    ["8031234567", "ten digits with neither 0 nor +234"],
    ["+447911123456", "another country"],
    ["+1 555 123 4567", "another country"],
    ["0803123456a", "a letter"],
    ["+234-803-123-456７", "a full-width digit"],
    ["++2348031234567", "two plus signs"],
  ])("refuses %j (%s)", (input) => {
    expect(normalizeWhatsapp(input)).toBeNull();
  });

  it("writes the wa.me address without the plus and with the message encoded", () => {
    expect(waMeNumber("+2348031234567")).toBe("2348031234567");
    expect(whatsappUrl("+2348031234567", "Invoice 127: ₦1,000.00 & more\nhttps://x/s/a?b")).toBe(
      "https://wa.me/2348031234567?text=Invoice%20127%3A%20%E2%82%A61%2C000.00%20%26%20more%0Ahttps%3A%2F%2Fx%2Fs%2Fa%3Fb",
    );
  });
});
