// The manager dashboard's "% of invoiced paid" (settled share) is rounded to a tenth with exact
// decimals: 16.90 paid of 1,000.00 invoiced reads 1.7%, not the 1% that cutting to a whole
// percent gave.
import { beforeAll, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { loadManagerDashboard } from "../../app/presenters/manager-dashboard.server";
import { createAgent, createClient, createDelivery, createUser } from "../factories";

let manager: User;

beforeAll(async () => {
  manager = await createUser({ role: "manager" });
});

it("is 0 with nothing invoiced, then 16.90 of 1,000.00 reads 1.7", async () => {
  expect((await loadManagerDashboard(manager)).outstandingProgress).toBe("0");
  const agent = await createAgent();
  const client = await createClient({ taxRate: "0" });
  const delivery = await createDelivery({
    agentId: agent.id,
    clientId: client.id,
    createdBy: manager.id,
    tons: "1.00",
    sellingRate: "1000.00",
  });
  const invoice = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
  if (!invoice.ok) throw new Error(JSON.stringify(invoice));
  expect(invoice.invoice.amount).toBe("1000.00");
  const paid = await recordPayment(manager, { invoiceId: invoice.invoice.id, amount: "16.90" });
  expect(paid.ok).toBe(true);
  expect((await loadManagerDashboard(manager)).outstandingProgress).toBe("1.7");
});
