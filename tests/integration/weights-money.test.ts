// What is invoiced and what is paid once the weighbridge speaks (docs/decisions/1220), on both
// drivers: a trip with a loading and a client's ticket is invoiced on its accepted tons, its agent
// paid on the agent's basis, and the kept totals, the tax report, both statements and db:check all
// agree with figures worked out by hand below.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type Client, type User } from "../../app/db.server";
import { agentStatement } from "../../app/presenters/agent-statement.server";
import { clientStatement } from "../../app/presenters/client-statement.server";
import { taxMonth } from "../../app/presenters/tax-report.server";
import { recordTicket } from "../../app/services/deliveries/record-ticket.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { todayIn } from "../../app/utils/dates";
import { findBreaches } from "../../db/ops";
import { createAgent, createClient, createDelivery, createQualityRule, createUser } from "../factories";
import { expectKeptTotalsToMatchRebuild } from "../money-entries";

const today = () => todayIn("Africa/Lagos");
const month = () => today().slice(0, 7);
let manager: User;
let admin: User;
let client: Client;

beforeAll(async () => {
  manager = await createUser({ role: "manager" });
  admin = await createUser({ role: "admin" });
  client = await createClient({ taxRate: "7.50" });
  // 16% and 1% a point: a reading of 18.5% deducts 2.5% of the received weight.
  await createQualityRule({
    clientId: client.id,
    validFrom: "2026-01-01",
    moistureThreshold: "16",
    deductionPerPoint: "1",
  });
});

/** A trip of 30.5 t loaded at 40,000 bought and 60,000 sold, with 5,000 offloading and 100,000 haulage. */
async function trip(agentId: number, payBasis: "loaded" | "received" | "accepted" = "loaded") {
  return createDelivery({
    agentId,
    clientId: client.id,
    createdBy: manager.id,
    date: today(),
    tons: "30.50",
    buyingRate: "40000.00",
    sellingRate: "60000.00",
    offloadingCost: "5000.00",
    logisticsCost: "100000.00",
    payBasis,
  });
}

let ticketNo = 0;
async function ticket(deliveryId: number, kind: "loading" | "received", grossKg: number, moisture?: string) {
  const result = await recordTicket(
    manager,
    deliveryId,
    { kind, ticketNo: `W-${++ticketNo}`, truckNo: "KJA 552 XA", grossKg, tareKg: 15000, moisture },
    null,
  );
  if (!result.ok) throw new Error(result.message);
}

async function deliveryRow(id: number) {
  const [row] = await (await getDb()).select().from(schema.deliveries).where(eq(schema.deliveries.id, id));
  return row;
}

async function monthTotals() {
  const [row] = rowsOf<{ tons: string; revenue: string; profit: string }>(
    await (
      await getDb()
    ).execute(sql`select coalesce(sum(tons), 0)::text as tons, coalesce(sum(revenue), 0)::text as revenue,
      coalesce(sum(profit), 0)::text as profit from delivery_month_totals where month = ${month() + "-01"}::date`),
  );
  return row;
}

describe("a trip with both tickets", () => {
  it("is invoiced on its accepted tons, and every figure that follows agrees with the hand count", async () => {
    const agent = await createAgent();
    const before = await monthTotals();
    const taxBefore = (await taxMonth(manager, month()))?.total.netTax ?? "0.00";
    const delivery = await trip(agent.id);
    // Loaded: 45,500 - 15,000 = 30,500 kg. Received: 45,120 - 15,000 = 30,120 kg at 18.5% moisture:
    // 2.5% of 30,120 kg = 753 kg deducted, 29,367 kg accepted; 380 kg short.
    await ticket(delivery.id, "loading", 45500);
    await ticket(delivery.id, "received", 45120, "18.5");
    expect(await deliveryRow(delivery.id)).toMatchObject({
      tons: "30.500",
      receivedTons: "30.120",
      qualityDeductionTons: "0.753",
      acceptedTons: "29.367",
      invoicedTons: "29.367",
      paidTons: "30.500",
      moisture: "18.50",
    });

    const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    if (!made.ok) throw new Error(made.message);
    // Amount: 29.367 x 60,000 = 1,762,020.00. Cost: 30.5 x 40,000 + 100,000 = 1,320,000.00.
    expect(made.invoice).toMatchObject({ amount: "1762020.00", profit: "442020.00" });
    const [line] = await (
      await getDb()
    )
      .select()
      .from(schema.invoiceLines)
      .where(eq(schema.invoiceLines.invoiceId, made.invoice.id));
    expect(line).toMatchObject({
      tons: "29.367",
      receivedTons: "30.120",
      moisture: "18.50",
      qualityDeductionTons: "0.753",
      amount: "1762020.00000",
    });

    // The month's kept totals gained the accepted tons, the revenue and the profit.
    const after = await monthTotals();
    const [delta] = rowsOf<{ tons: string; revenue: string; profit: string }>(
      await (
        await getDb()
      ).execute(
        sql`select (${after.tons}::numeric - ${before.tons}::numeric)::text as tons,
          (${after.revenue}::numeric - ${before.revenue}::numeric)::text as revenue,
          (${after.profit}::numeric - ${before.profit}::numeric)::text as profit`,
      ),
    );
    expect(delta).toEqual({ tons: "29.367", revenue: "1762020.00000", profit: "442020.00000" });

    // Tax contained in 1,762,020.00 at 7.5%: 1,762,020 x 7.5 / 107.5 = 122,931.627... → 122,931.63.
    const tax = (await taxMonth(manager, month()))!;
    const [taxDelta] = rowsOf<{ d: string }>(
      await (await getDb()).execute(sql`select (${tax.total.netTax}::numeric - ${taxBefore}::numeric)::text as d`),
    );
    expect(taxDelta.d).toBe("122931.63");

    // The client's statement charges the invoice at its amount.
    const statement = await clientStatement(manager, client.id, { from: today(), to: today() });
    if (!statement.ok) throw new Error(statement.message);
    expect(statement.statement.lines).toContainEqual(expect.objectContaining({ debit: "1762020.00" }));

    // Invoiced: its tickets no longer change.
    const late = await recordTicket(
      manager,
      delivery.id,
      { kind: "received", ticketNo: "W-LATE", truckNo: "KJA 552 XA", grossKg: 45000, tareKg: 15000, moisture: "16" },
      null,
    );
    expect(late).toMatchObject({
      ok: false,
      status: 409,
      message: "This delivery is invoiced: its tickets can no longer change",
    });

    expect(await findBreaches(await getDb())).toEqual([]);
    await expectKeptTotalsToMatchRebuild(["delivery_day_totals", "delivery_month_totals", "agent_balances"]);
  });

  it("a void frees the delivery with its weights, and the next invoice is on the same accepted tons", async () => {
    const agent = await createAgent();
    const delivery = await trip(agent.id);
    await ticket(delivery.id, "received", 44000, "17");
    // 29,000 kg at 1 point over: 290 kg off, 28,710 kg accepted; 28.71 x 60,000 = 1,722,600.00.
    const first = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    if (!first.ok) throw new Error(first.message);
    expect(first.invoice.amount).toBe("1722600.00");
    const voided = await voidInvoice(manager, first.invoice.id, { reason: "Wrong client reference" });
    expect(voided).toMatchObject({ ok: true });
    const second = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    if (!second.ok) throw new Error(second.message);
    expect(second.invoice.amount).toBe("1722600.00");
    expect(await findBreaches(await getDb())).toEqual([]);
  });
});

describe("an agent's pay basis", () => {
  it("pays each agent on its own basis, and its balance and statement say the same", async () => {
    const period = { from: today(), to: today() };
    // Net pay = paid tons x 40,000 - 5,000 offloading:
    //   loaded   30.500 t → 1,220,000 - 5,000 = 1,215,000.00
    //   received 30.120 t → 1,204,800 - 5,000 = 1,199,800.00
    //   accepted 29.367 t → 1,174,680 - 5,000 = 1,169,680.00
    const cases = [
      { basis: "loaded", tons: "30.500", earned: "1215000.00" },
      { basis: "received", tons: "30.120", earned: "1199800.00" },
      { basis: "accepted", tons: "29.367", earned: "1169680.00" },
    ] as const;
    for (const { basis, tons, earned } of cases) {
      const agent = await createAgent({ payBasis: basis });
      const delivery = await trip(agent.id, basis);
      // Before the client's ticket every basis pays the loaded tons.
      expect((await deliveryRow(delivery.id)).paidTons).toBe("30.500");
      await ticket(delivery.id, "received", 45120, "18.5");
      expect((await deliveryRow(delivery.id)).paidTons).toBe(tons);
      const [balance] = await (
        await getDb()
      )
        .select()
        .from(schema.agentBalances)
        .where(eq(schema.agentBalances.agentId, agent.id));
      expect(balance.earned).toBe(earned);
      const statement = await agentStatement(admin, agent.id, period);
      if (!statement.ok) throw new Error(statement.message);
      expect(statement.statement.lines).toEqual([expect.objectContaining({ kind: "delivery", tons, earned })]);
      expect(statement.statement.closingOwed).toBe(earned);
    }
    expect(await findBreaches(await getDb())).toEqual([]);
    await expectKeptTotalsToMatchRebuild(["agent_balances", "delivery_month_totals"]);
  });
});

describe("db:check and the weights", () => {
  it("names a delivery whose weights left its tickets or its rule", async () => {
    const agent = await createAgent();
    const delivery = await trip(agent.id);
    await ticket(delivery.id, "loading", 45500);
    await ticket(delivery.id, "received", 45120, "18.5");
    const db = await getDb();
    const checksOf = async () => (await findBreaches(db)).map((b) => b.check);
    await db
      .transaction(async (tx) => {
        // As a careless hand in psql would: the kept weights no longer match the tickets.
        await tx.execute(sql`update deliveries set tons = 31, received_tons = 30, quality_deduction_tons = 0.5
        where id = ${delivery.id}`);
        const found = await findBreaches(tx as never);
        expect(found.map((b) => b.check)).toEqual(
          expect.arrayContaining([
            "a delivery's loaded tons are its loading ticket's net",
            "a delivery's received tons and moisture are its client's ticket's",
            "a delivery's quality deduction is its rule's share of its received weight",
          ]),
        );
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!String(error).includes("Rollback")) throw error;
      });
    expect(await checksOf()).toEqual([]);
  });
});
