// Every kind of money write once, through the app's JSON calls: three invoices of their own, a
// payment and its reversal, a credit note, a void, an agent payout and a month close. What the
// ops tests that carry a database's history (its grants, its move to PostgreSQL) write on top of
// the mixed load, so each kind of row and guard is there to check.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { request, signIn } from "./client";
import type { Seeded } from "./seed";

export async function recordEveryCorrection(base: string, seeded: Seeded, options: { tons: string; location: string }) {
  const staff = await signIn(base, seeded.staff[0], seeded.password);
  const manager = await signIn(base, seeded.managers[0], seeded.password);
  const admin = await signIn(base, seeded.admins[0], seeded.password);
  const post = async (cookie: string, path: string, json: object) => {
    const reply = await request(base, path, {
      method: "POST",
      cookie,
      json,
      headers: { "Idempotency-Key": randomUUID() },
    });
    expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
    return reply.body as { id: number };
  };
  const invoices: number[] = [];
  for (let i = 0; i < 3; i++) {
    const delivery = await post(staff, "/api/deliveries", {
      agentId: seeded.agentIds[1],
      tons: options.tons,
      location: options.location,
    });
    invoices.push((await post(manager, "/api/invoices", { deliveryId: delivery.id })).id);
  }
  const payment = await post(manager, "/api/payments", { invoiceId: invoices[0], amount: "5000.00" });
  await post(admin, `/api/payments/${payment.id}/reversal`, { reason: "Recorded twice" });
  await post(manager, `/api/invoices/${invoices[1]}/credit-notes`, { amount: "100.00", reason: "Short weight" });
  await post(admin, `/api/invoices/${invoices[2]}/void`, { reason: "Wrong client" });
  await post(admin, `/api/agents/${seeded.agentIds[0]}/payouts`, { amount: "1000.00", method: "cash" });
  await post(admin, "/api/periods/close", { month: "2020-01" });
  return { invoices, post, manager };
}
