import { describe, expect, it } from "vitest";
import { deliveryBody, LOADING_TICKET, TICKET_PHOTO } from "./outbox-protocol";

describe("deliveryBody", () => {
  it("puts the loading ticket's boxes into `loadingTicket` and leaves the delivery's fields as they are", () => {
    expect(
      deliveryBody({
        agentId: "3",
        tons: "",
        truckNo: "LAG 1 A",
        "loadingTicket.ticketNo": "T-1",
        "loadingTicket.grossKg": "45550",
        [TICKET_PHOTO]: "data:image/jpeg;base64,/9j/",
      }),
    ).toEqual({
      agentId: "3",
      tons: "",
      truckNo: "LAG 1 A",
      [LOADING_TICKET]: { ticketNo: "T-1", grossKg: "45550", photo: "data:image/jpeg;base64,/9j/" },
    });
  });

  it("sends a delivery without ticket boxes exactly as typed", () => {
    const fields = { agentId: "3", tons: "12.5", location: "Ikorodu" };
    expect(deliveryBody(fields)).toEqual(fields);
  });
});
