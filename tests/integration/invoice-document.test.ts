// The invoice document behind the printable page and the PDF (docs/decisions/0951): its lines
// from invoice_lines (counted with the figures, read in batches), tax contained, payments and
// credit notes, balance, and a void invoice.
import { describe, expect, it } from "vitest";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { invoiceLineBatches, loadInvoiceDocument } from "../../app/presenters/invoice-document.server";
import { streamInvoicePdf } from "../../app/presenters/invoice-pdf.server";
import { todayIn } from "../../app/utils/dates";
import { createAgent, createClient, createDelivery, createUser } from "../factories";

async function linesOf(admin: Parameters<typeof invoiceLineBatches>[0], id: number) {
  const lines = [];
  for await (const batch of invoiceLineBatches(admin, id)) lines.push(...batch);
  return lines;
}

async function invoiceOf(tons: string, rate: string) {
  const admin = await createUser({ role: "admin" });
  const agent = await createAgent();
  const client = await createClient({ taxRate: "7.50", address: "4 Marina\nLagos" });
  const delivery = await createDelivery({
    agentId: agent.id,
    clientId: client.id,
    createdBy: admin.id,
    tons,
    sellingRate: rate,
    truckNo: "LAG-1",
    date: "2026-02-10",
  });
  const made = await createInvoiceForDelivery(admin, { deliveryId: delivery.id });
  if (!made.ok) throw new Error(made.message);
  return { admin, invoice: made.invoice, client };
}

describe("the invoice document", () => {
  it("holds the lines, the tax contained, payments, credit notes and the balance", async () => {
    // 10 t x 10,750.05 = 107,500.50; tax at 7.5% = 107,500.50 x 7.5 / 107.5 = 7,500.03 (7,500.0348...)
    const { admin, invoice, client } = await invoiceOf("10.00", "10750.05");
    const today = todayIn("Africa/Lagos");
    const paid = await recordPayment(admin, { invoiceId: invoice.id, amount: "500.00", paymentDate: today });
    expect(paid.ok).toBe(true);
    const credit = await createCreditNote(admin, invoice.id, { amount: "0.50", reason: "Short weight" });
    expect(credit).toMatchObject({ ok: true });
    const doc = await loadInvoiceDocument(admin, invoice.id);
    expect(doc).toMatchObject({
      invoiceNo: invoice.invoiceNo,
      client: { name: client.name, address: "4 Marina\nLagos" },
      lineCount: 1,
      totalTons: "10.000",
      amount: "107500.50",
      taxRate: "7.50",
      tax: "7500.03",
      net: "100000.47",
      amountInWords: "One Hundred Seven Thousand Five Hundred Naira and Fifty Kobo Only",
      paid: "500.00",
      credited: "0.50",
      balance: "107000.00",
      voided: false,
    });
    expect(doc!.received.map((r) => [r.kind, r.amount])).toEqual([
      ["payment", "500.00"],
      ["credit", "0.50"],
    ]);
    expect(doc!.received[1].reference).toMatch(/^CN-\d+: Short weight$/);
    expect(await linesOf(admin, invoice.id)).toEqual([
      {
        date: "2026-02-10",
        truckNo: "LAG-1",
        location: expect.any(String),
        tons: "10.000",
        rate: "10750.05",
        amount: "107500.50",
        // No client's ticket: invoiced on the loaded tons, nothing to say of weights (decision 1220).
        receivedTons: null,
        moisture: null,
        qualityDeductionTons: null,
      },
    ]);
    expect(await loadInvoiceDocument(admin, 999_999)).toBeNull();
  });

  it("a void invoice keeps its lines, owes nothing, and prints VOID", async () => {
    const { admin, invoice } = await invoiceOf("2.00", "1000.00");
    const voided = await voidInvoice(admin, invoice.id, { reason: "Raised in error" });
    expect(voided).toMatchObject({ ok: true });
    const doc = await loadInvoiceDocument(admin, invoice.id);
    expect(doc).toMatchObject({
      voided: true,
      voidReason: "Raised in error",
      balance: "0.00",
      lineCount: 1,
      totalTons: "2.000",
    });
    expect(await linesOf(admin, invoice.id)).toMatchObject([{ tons: "2.000" }]);
    const stream = streamInvoicePdf(doc!, invoiceLineBatches(admin, invoice.id), { compress: false });
    const pdf = Buffer.from(await new Response(stream).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  });
});
