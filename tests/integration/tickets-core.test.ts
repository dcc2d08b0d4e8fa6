// Weighbridge tickets (docs/decisions/1220): the write core on PGlite and PostgreSQL.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { recordTicket } from "../../app/services/deliveries/record-ticket.server";
import { createAgent, createClient, createDelivery, createQualityRule, createUser } from "../factories";

describe("recording a client's ticket", () => {
  it("sets received, deducted and accepted tons from the rule of the delivery's day", async () => {
    const manager = await createUser({ role: "manager" });
    const client = await createClient();
    const agent = await createAgent();
    await createQualityRule({
      clientId: client.id,
      validFrom: "2026-01-01",
      moistureThreshold: "16",
      deductionPerPoint: "1",
    });
    const delivery = await createDelivery({
      clientId: client.id,
      agentId: agent.id,
      createdBy: manager.id,
      date: "2026-03-02",
      tons: "30",
      sellingRate: "60000",
      buyingRate: "40000",
    });
    const result = await recordTicket(
      manager,
      delivery.id,
      {
        kind: "received",
        ticketNo: "r-1",
        truckNo: "lag 123 xy",
        grossKg: "45120",
        tareKg: "15000",
        moisture: "18.5",
      },
      null,
    );
    expect(result).toMatchObject({ ok: true });
    const db = await getDb();
    const [row] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, delivery.id));
    // 30,120 kg received; 2.5% of it is 753 kg; accepted 29,367 kg.
    expect(row).toMatchObject({
      tons: "30.000",
      receivedTons: "30.120",
      qualityDeductionTons: "0.753",
      acceptedTons: "29.367",
      invoicedTons: "29.367",
      paidTons: "30.000",
      moisture: "18.50",
      truckNo: "LAG 123 XY",
    });
    const again = await recordTicket(
      manager,
      delivery.id + 1000,
      { kind: "received", ticketNo: "R-1", truckNo: "X1", grossKg: 2, tareKg: 1 },
      null,
    );
    expect(again).toMatchObject({ ok: false, status: 404 });
  });
});
