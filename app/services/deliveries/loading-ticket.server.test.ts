import { describe, expect, it } from "vitest";
import { PHOTO_NOT_READ, readLoadingTicket, tonsWithTicket } from "./loading-ticket.server";

const ticket = { ticketNo: "t-9", grossKg: "32,480", tareKg: "12000" };

describe("readLoadingTicket", () => {
  it("reads none when absent, null or every box blank", () => {
    for (const value of [undefined, null, {}, { ticketNo: " ", grossKg: "", photo: null }])
      expect(readLoadingTicket(value, "LAG 1 A")).toEqual({ ok: true, ticket: null });
  });

  it("reads a ticket whose plate is Truck No., its net as exact tons", () => {
    const read = readLoadingTicket(ticket, "lag 1 a");
    expect(read).toMatchObject({
      ok: true,
      ticket: {
        ticket: { kind: "loading", ticketNo: "T-9", truckNo: "LAG 1 A", grossKg: 32480, tareKg: 12000, moisture: null },
        photo: null,
        tons: "20.480",
      },
    });
  });

  it("names the form's boxes in its refusals", () => {
    expect(readLoadingTicket({ ...ticket, photo: "%%%" }, "LAG 1 A")).toEqual({
      ok: false,
      fieldErrors: { "loadingTicket.photo": [PHOTO_NOT_READ] },
    });
    expect(readLoadingTicket({ ...ticket, tareKg: "40000" }, "LAG 1 A")).toEqual({
      ok: false,
      fieldErrors: { "loadingTicket.grossKg": ["Gross must be more than tare"] },
    });
    expect(readLoadingTicket(ticket, "")).toEqual({ ok: false, fieldErrors: { truckNo: ["Truck No. is required"] } });
    // The ticket's own plate, the same truck however it is written, may stand beside Truck No.
    expect(readLoadingTicket({ ...ticket, truckNo: "LAG-1-A" }, "lag 1 a")).toMatchObject({ ok: true });
  });
});

describe("tonsWithTicket", () => {
  const read = readLoadingTicket(ticket, "LAG 1 A");
  const loading = read.ok ? read.ticket : null;

  it("takes the ticket's net when Tons is blank, and Tons typed as that net at any decimals", () => {
    expect(tonsWithTicket(undefined, loading)).toEqual({ ok: true, tons: "20.480" });
    expect(tonsWithTicket("20.48", loading)).toEqual({ ok: true, tons: "20.480" });
  });

  it("refuses other tons, and requires tons without a ticket", () => {
    expect(tonsWithTicket("20.5", loading)).toEqual({
      ok: false,
      message: "Tons must match the loading ticket's net (20.480 t), or be left blank",
    });
    expect(tonsWithTicket(null, null)).toEqual({ ok: false, message: "Tons is required" });
    expect(tonsWithTicket("12.50", null)).toEqual({ ok: true, tons: "12.50" });
  });
});
