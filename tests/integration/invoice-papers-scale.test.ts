// A month's invoice has thousands of lines (docs/decisions/0951):
// the printable page and the PDF stream them from keyset batches. An invoice of 2,500 lines (five
// batches) prints every line once and in order on the page and in the PDF; the page carries no
// hydration data (each line's text is in it once); both come in parts, the page's figures first.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/db.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { INVOICE_LINE_BATCH } from "../../app/presenters/invoice-document.server";
import * as pdfRoute from "../../app/routes/_app.invoices_.$id_.pdf";
import * as printRoute from "../../app/routes/_app.invoices_.$id_.print";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";

const LINES = 2_500;
let invoiceId: number;
let invoiceNo: string;
/** The trucks of the invoice's lines in the order the invoice lists them: date, then delivery. */
let expected: string[];

beforeAll(async () => {
  const admin = await createUser({ role: "admin" });
  const agent = await createAgent();
  const client = await createClient({ taxRate: "7.50" });
  const delivery = await createDelivery({
    agentId: agent.id,
    clientId: client.id,
    createdBy: admin.id,
    date: "2026-02-10",
    tons: "1.50",
    sellingRate: "1000.00",
    truckNo: "TRK-00000",
    location: "Yard 0",
  });
  const made = await createInvoiceForDelivery(admin, { deliveryId: delivery.id });
  if (!made.ok) throw new Error(made.message);
  invoiceId = made.invoice.id;
  invoiceNo = made.invoice.invoiceNo;
  // The rest of a month's lines, written at once (the lines are append-only; inserting is allowed):
  // dates over 28 days, so each day's lines come from every batch of the keyset order.
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into invoice_lines
        (invoice_id, delivery_id, date, agent_name, truck_no, location, tons, selling_rate, amount)
      select ${invoiceId}, 1000000 + g, date '2026-02-01' + (g % 28), 'Agent', 'TRK-' || lpad(g::text, 5, '0'),
        'Yard ' || g, 1.50, 1000.00, 1500.0000
      from generate_series(1, ${LINES - 1}) g`);
  });
  const lines = [{ date: 10, deliveryId: delivery.id, truck: "TRK-00000" }];
  for (let g = 1; g < LINES; g++) lines.push({ date: 1 + (g % 28), deliveryId: 1_000_000 + g, truck: truck(g) });
  lines.sort((a, b) => a.date - b.date || a.deliveryId - b.deliveryId);
  expected = lines.map((l) => l.truck);
});

const truck = (g: number) => `TRK-${String(g).padStart(5, "0")}`;
const trucksIn = (text: string) => Array.from(text.matchAll(/TRK-\d{5}/g), (m) => m[0]);

async function get(route: typeof printRoute | typeof pdfRoute, suffix: string, context: Record<string, unknown> = {}) {
  const { cookie } = await loginAs("manager");
  const response = await route.loader({
    request: new Request(`http://localhost/invoices/${invoiceId}/${suffix}`, { headers: { Cookie: cookie } }),
    params: { id: String(invoiceId) },
    context,
  });
  expect(response).toBeInstanceOf(Response);
  return response as Response;
}

/** The body as the client receives it: its parts, in order. */
async function parts(response: Response) {
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

describe("an invoice of 2,500 lines", () => {
  it("prints every line once, in order, with no hydration data, the figures first", async () => {
    expect(LINES).toBeGreaterThan(4 * INVOICE_LINE_BATCH);
    const response = await get(printRoute, "print", { cspNonce: "n0nce" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const chunks = (await parts(response)).map((c) => new TextDecoder().decode(c));
    const html = chunks.join("");
    // Each line once, in the invoice's order: not again in a copy of the data for the browser.
    expect(trucksIn(html)).toEqual(expected);
    expect(html).not.toContain("__remixContext");
    expect(html.split("TRK-01234").length - 1).toBe(1);
    // The one script is the Print button's, under the request's CSP nonce.
    expect(html.match(/<script/g)).toEqual(["<script"]);
    expect(html).toContain('<script nonce="n0nce">');
    // The page's head and figures come first, without a line; then the lines, a batch a part.
    expect(chunks[0]).toContain("<h1");
    expect(chunks[0]).toContain("Bill To");
    expect(trucksIn(chunks[0])).toEqual([]);
    expect(chunks.length).toBeGreaterThanOrEqual(2 + Math.ceil(LINES / INVOICE_LINE_BATCH));
    expect(chunks[chunks.length - 1]).toContain("Balance Due");
    expect(html).toContain(`${LINES} deliveries`);
    expect(html).toContain(`aria-label="Invoice ${invoiceNo}"`);
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    // About the size of its row per line.
    const rows = chunks.slice(1, -1).join("");
    expect(rows.length / LINES).toBeLessThan(400);
  });

  it("is a document: a link followed inside the app (a fetch for page data) is told to load it as one", async () => {
    const { cookie } = await loginAs("manager");
    const response = await printRoute.loader({
      request: new Request(
        `http://localhost/invoices/${invoiceId}/print?_routes=routes%2F_app.invoices_.%24id_.print`,
        {
          headers: { Cookie: cookie, "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty" },
        },
      ),
      params: { id: String(invoiceId) },
      context: { pageDataRequest: true },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/invoices/${invoiceId}/print`);
    expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
  });

  it("answers a script's fetch (Sec-Fetch-Mode: cors, not the router's page data) with the document", async () => {
    const { cookie } = await loginAs("manager");
    const response = await printRoute.loader({
      request: new Request(`http://localhost/invoices/${invoiceId}/print`, {
        headers: { Cookie: cookie, "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty" },
      }),
      params: { id: String(invoiceId) },
      context: { pageDataRequest: false },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain("Balance Due");
  });

  it("refuses a user who may not print before telling the app to load it as a document", async () => {
    const { cookie } = await loginAs("staff");
    const refused = await printRoute
      .loader({
        request: new Request(
          `http://localhost/invoices/${invoiceId}/print?_routes=routes%2F_app.invoices_.%24id_.print`,
          { headers: { Cookie: cookie, "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty" } },
        ),
        params: { id: String(invoiceId) },
        context: { pageDataRequest: true },
      })
      .then(
        () => null,
        (thrown: unknown) => thrown,
      );
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
    expect((refused as Response).headers.get("X-Remix-Reload-Document")).toBeNull();
  });

  it("draws every line once, in order, in the PDF, with Page n of m, streamed as it is drawn", async () => {
    const response = await get(pdfRoute, "pdf");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="invoice-${invoiceNo}.pdf"`);
    // Streamed: no length known in advance, and the bytes come in parts as the pages are drawn.
    expect(response.headers.get("Content-Length")).toBeNull();
    const chunks = await parts(response);
    expect(chunks.length).toBeGreaterThan(Math.ceil(LINES / INVOICE_LINE_BATCH));
    const pdf = Buffer.concat(chunks);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "invoice-scale-")), "invoice.pdf");
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect(trucksIn(text)).toEqual(expected);
    expect(text).toContain(`${LINES} deliveries`);
    // pdftotext ends each page with a form feed.
    const pages = text.split("\f").slice(0, -1);
    expect(pages.length).toBeGreaterThan(LINES / 60);
    pages.forEach((page, i) => expect(page, `page ${i + 1}`).toContain(`Page ${i + 1} of ${pages.length}`));
  });
});
