// The statements as PDF (docs/decisions/0970, 0980) as Remix calls their
// routes, on both drivers: who may have them, a bad period a 400 and an unknown client or agent
// a 404, and what the PDF says (read back with pdftotext): the party, the lines of the period,
// the closing figure and, for a client, the ageing box.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordAgentPayout } from "../../app/services/agents/record-payout.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import * as agentPdf from "../../app/routes/_app.agents_.$id.statement_.pdf";
import * as clientPdf from "../../app/routes/_app.clients_.$id_.statement_.pdf";
import { addDays, todayIn } from "../../app/utils/dates";
import { describeAccess } from "../access";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";
import { pdfWords } from "../pdf-words";

let clientId: number;
let agentId: number;
let admin: User;
const today = todayIn("Africa/Lagos");
const period = `from=${today.slice(0, 8)}01&to=${today}`;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  agentId = (await createAgent({ name: "Pdf Agent" })).id;
  clientId = (await createClient({ name: "Pdf Client Ltd", paymentTermsDays: 30 })).id;
  // 10 t x 12,000.00 sold: invoice 120,000.00, 20,000.50 paid; bought at 9,000.00 with 1,500.00 offloading: 88,500.00 earned.
  const d = await createDelivery({
    agentId,
    clientId,
    createdBy: admin.id,
    date: today,
    tons: "10.00",
    sellingRate: "12000.00",
    buyingRate: "9000.00",
    offloadingCost: "1500.00",
    mobilizationPayment: null,
    truckNo: "PDF-77",
  });
  const invoice = await createInvoiceForDelivery(admin, { deliveryId: d.id });
  if (!invoice.ok) throw new Error(invoice.message);
  const paid = await recordPayment(admin, { invoiceId: invoice.invoice.id, amount: "20000.50", reference: "PAY-PDF" });
  if (!paid.ok) throw new Error(paid.message);
  const payout = await recordAgentPayout(admin, agentId, { amount: "8500.00", method: "cheque", reference: "CHQ-9" });
  if (!payout.ok) throw new Error(payout.message);
});

describeAccess("statement PDFs", [
  {
    name: "client statement PDF",
    handler: clientPdf.loader,
    method: "GET",
    path: "/clients/1/statement/pdf",
    params: { id: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "agent statement PDF",
    handler: agentPdf.loader,
    method: "GET",
    path: "/agents/1/statement/pdf",
    params: { id: "1" },
    allowed: ["admin"],
    page: true,
  },
]);

async function get(handler: typeof clientPdf.loader, url: string, id: number) {
  const { cookie } = await loginAs("admin");
  try {
    return await handler({
      request: new Request(`http://localhost${url}`, { headers: { Cookie: cookie } }),
      params: { id: String(id) },
      context: {},
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function pdfText(bytes: Buffer) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "statement-route-")), "s.pdf");
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

describe("the statement PDFs", () => {
  it("a client's: an attachment with the client, the invoice and payment lines, the closing balance and the ageing", async () => {
    const response = await get(clientPdf.loader, `/clients/${clientId}/statement/pdf?${period}`, clientId);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="statement-\d+-.+\.pdf"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfText(bytes);
    expect(text).toContain("Pdf Client Ltd");
    expect(text).toContain("PAY-PDF");
    expect(text).toContain("₦99,999.50");
    expect(text).toContain("AGEING AS OF");
  });

  it("an agent's: the delivery's net payable, the payout and what is still owed", async () => {
    const response = await get(agentPdf.loader, `/agents/${agentId}/statement/pdf?${period}`, agentId);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toContain(`agent-statement-${agentId}-`);
    const text = pdfText(Buffer.from(await response.arrayBuffer()));
    expect(text).toContain("Pdf Agent");
    expect(text).toContain("PDF-77");
    expect(text).toContain("88,500.00");
    expect(text).toContain("CHQ-9");
    expect(text).toContain("₦80,000.00");
  });

  it("an agent's: what was owed at the start under Owed, where the page and the CSV put it", async () => {
    // Earned before the period: 2 t x 5,000.00 less 1,000.00 offloading, 9,000.00 owed at its start.
    const owedAgent = (await createAgent({ name: "Ọlá Opening Agent" })).id;
    await createDelivery({
      agentId: owedAgent,
      clientId,
      createdBy: admin.id,
      date: addDays(`${today.slice(0, 8)}01`, -3),
      tons: "2.00",
      buyingRate: "5000.00",
      offloadingCost: "1000.00",
      mobilizationPayment: null,
    });
    const response = await get(agentPdf.loader, `/agents/${owedAgent}/statement/pdf?${period}`, owedAgent);
    const [page] = pdfWords(Buffer.from(await response.arrayBuffer()));
    const words = page.words;
    const titleEnd = (before: string) => words.find((w, i) => w.text === "(₦)" && words[i - 1]?.text === before)!.xMax;
    // The table's "Owed at start" row (the summary above it has its own, in ₦).
    const start = words.filter((w) => w.text === "start").at(-1)!;
    const figure = words.find((w) => w.text === "9,000.00" && Math.abs(w.yMin - start.yMin) < 1)!;
    expect(Math.abs(figure.xMax - titleEnd("OWED"))).toBeLessThan(1);
    expect(Math.abs(figure.xMax - titleEnd("OUT"))).toBeGreaterThan(20);
    expect(words.map((w) => w.text).join(" ")).toContain("Ọlá Opening Agent");
  });

  it("a bad period is a 400 and an unknown client or agent a 404", async () => {
    const bad = await get(
      clientPdf.loader,
      `/clients/${clientId}/statement/pdf?from=2026-05-01&to=2026-04-01`,
      clientId,
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("The start date is after the end date");
    const badAgent = await get(agentPdf.loader, `/agents/${agentId}/statement/pdf?from=2026-02-30`, agentId);
    expect(badAgent.status).toBe(400);
    expect((await get(clientPdf.loader, "/clients/999999/statement/pdf", 999999)).status).toBe(404);
    expect((await get(agentPdf.loader, "/agents/999999/statement/pdf", 999999)).status).toBe(404);
  });
});
