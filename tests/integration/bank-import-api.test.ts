// The bank statement's JSON calls and page (docs/decisions/1241): POST /api/bank-statements as
// multipart, GET /api/bank-lines?status=unmatched with proposals, POST /api/bank-lines/{id}/match
// and /not-receipt, the page's forms without JavaScript, and who may call each (staff never).
import { beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import * as statementsApi from "../../app/routes/api.bank-statements";
import * as linesApi from "../../app/routes/api.bank-lines";
import * as matchApi from "../../app/routes/api.bank-lines.$id.match";
import * as notReceiptApi from "../../app/routes/api.bank-lines.$id.not-receipt";
import * as page from "../../app/routes/_app.receipts_.bank";
import { todayIn } from "../../app/utils/dates";
import { describeAccess } from "../access";
import { createAgent, createClient, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { invoiceOfTenThousand, invoiceRow } from "../money-entries";

let manager: { user: User; cookie: string };
let agentId: number;
const day = todayIn("Africa/Lagos").split("-").reverse().join("/");

const MAPPING = {
  dateColumn: "Date",
  dateFormat: "dd/MM/yyyy",
  narrationColumn: "Details",
  referenceColumn: "Ref",
  amountStyle: "signed",
  amountColumn: "Amount",
};

beforeAll(async () => {
  manager = await loginAs("manager");
  agentId = (await createAgent()).id;
});

function multipart(path: string, cookie: string, fields: Record<string, string>, text: string | null) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  if (text !== null) body.set("file", new File([text], "statement.csv", { type: "text/csv" }));
  return new Request(`http://localhost${path}`, { method: "POST", headers: { Cookie: cookie }, body });
}

describe("the JSON calls", () => {
  it("imports, lists the unmatched with proposals, confirms once, marks a line", async () => {
    const client = await createClient({ whtRate: "5.00" });
    const { invoice } = await invoiceOfTenThousand(manager.user, agentId, client.id);
    const text = [
      "Date,Ref,Details,Amount",
      `${day},API1,"TRF INV ${invoice.invoiceNo}","9,534.88"`,
      `${day},API2,"REVERSAL",150.00`,
      `${day},API3,"CHARGES",-25.00`,
    ].join("\n");
    const fields = { ...MAPPING, accountName: "API account" };
    const made = await call(statementsApi.action, multipart("/api/bank-statements", manager.cookie, fields, text));
    expect(made).toMatchObject({ status: 201, body: { linesRead: 3, linesAdded: 3, duplicates: 0 } });
    const again = await call(
      statementsApi.action,
      multipart(
        "/api/bank-statements",
        manager.cookie,
        { ...MAPPING, bankAccountId: String((made.body as { bankAccountId: number }).bankAccountId) },
        text,
      ),
    );
    expect(again).toMatchObject({ status: 201, body: { linesAdded: 0, duplicates: 3 } });

    const listed = await call(
      linesApi.loader,
      makeRequest("/api/bank-lines?status=unmatched&limit=50", { cookie: manager.cookie }),
    );
    expect(listed.status).toBe(200);
    const lines = listed.body as { id: number; reference: string; proposals: { rule: string; fit: string }[] }[];
    expect(lines.map((l) => l.reference).sort()).toEqual(["API1", "API2"]);
    const api1 = lines.find((l) => l.reference === "API1")!;
    expect(api1.proposals[0]).toMatchObject({
      rule: "invoice",
      fit: "withholding",
      clientId: client.id,
      invoices: [{ invoiceId: invoice.id, invoiceNo: invoice.invoiceNo, balance: "10000.00" }],
    });
    const streamed = await call(linesApi.loader, makeRequest("/api/bank-lines", { cookie: manager.cookie }));
    expect((streamed.body as unknown[]).length).toBe(3);

    const match = (id: number, json: unknown) =>
      call(
        matchApi.action,
        makeRequest(`/api/bank-lines/${id}/match`, { method: "POST", cookie: manager.cookie, json }),
        { id: String(id) },
      );
    const confirmed = await match(api1.id, { clientId: client.id, invoiceIds: [invoice.id] });
    expect(confirmed).toMatchObject({
      status: 201,
      body: { lineId: api1.id, status: "matched", receipt: { amount: "9534.88", withheld: "465.12" } },
    });
    expect(await invoiceRow(invoice.id)).toMatchObject({ paymentStatus: "paid" });
    expect(await match(api1.id, { clientId: client.id })).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/already matched/) },
    });
    expect(await match(api1.id, { clientId: "x" })).toMatchObject({
      status: 400,
      body: { errors: { clientId: [expect.any(String)] } },
    });

    const api2 = lines.find((l) => l.reference === "API2")!;
    const mark = () =>
      call(
        notReceiptApi.action,
        makeRequest(`/api/bank-lines/${api2.id}/not-receipt`, { method: "POST", cookie: manager.cookie }),
        { id: String(api2.id) },
      );
    expect(await mark()).toMatchObject({ status: 200, body: { status: "not_receipt" } });
    expect(await mark()).toMatchObject({ status: 409 });
  });

  it("answers bad input with a 4xx naming the problem", async () => {
    const post = (fields: Record<string, string>, text: string | null) =>
      call(statementsApi.action, multipart("/api/bank-statements", manager.cookie, fields, text));
    expect(await post({ ...MAPPING, accountName: "Big" }, "Date,Ref\n" + "x".repeat(2 * 1024 * 1024))).toMatchObject({
      status: 413,
      body: { message: expect.stringMatching(/2 MB/), errors: { file: [expect.any(String)] } },
    });
    expect(await post({ ...MAPPING, accountName: "None" }, null)).toMatchObject({
      status: 400,
      body: { errors: { file: [expect.any(String)] } },
    });
    expect(
      await post({ ...MAPPING, accountName: "Misfit", amountColumn: "Credit" }, "Date,Ref,Details,Amount\n"),
    ).toMatchObject({ status: 400, body: { message: expect.stringMatching(/does not fit/) } });
    const json = await call(
      statementsApi.action,
      makeRequest("/api/bank-statements", { method: "POST", cookie: manager.cookie, json: MAPPING }),
    );
    expect(json.status).toBe(415);
    const badStatus = await call(
      linesApi.loader,
      makeRequest("/api/bank-lines?status=open", { cookie: manager.cookie }),
    );
    expect(badStatus).toMatchObject({ status: 400, body: { message: expect.stringMatching(/status/) } });
  });
});

describe("the page without JavaScript", () => {
  it("imports by a multipart post and confirms by a plain form, each answered by a redirect", async () => {
    const client = await createClient({ whtRate: "5.00" });
    const { invoice } = await invoiceOfTenThousand(manager.user, agentId, client.id);
    const text = ["Date,Ref,Details,Amount", `${day},PAGE1,"INV ${invoice.invoiceNo}",9534.88`].join("\n");
    const imported = await call(
      page.action,
      multipart("/receipts/bank", manager.cookie, { ...MAPPING, intent: "import", accountName: "Page account" }, text),
    );
    expect(imported.status).toBe(302);
    const loaded = await call(page.loader, makeRequest("/receipts/bank?status=unmatched", { cookie: manager.cookie }));
    const line = (
      loaded.body as { lines: { id: number; reference: string; proposals: { clientId: number }[] }[] }
    ).lines.find((l) => l.reference === "PAGE1")!;
    expect(line.proposals[0].clientId).toBe(client.id);
    const form = {
      intent: "match",
      lineId: String(line.id),
      clientId: String(client.id),
      invoiceIds: String(invoice.id),
      idempotencyKey: `page-${line.id}`,
    };
    const confirmed = await call(
      page.action,
      makeRequest("/receipts/bank", { method: "POST", cookie: manager.cookie, form }),
    );
    expect(confirmed.status).toBe(302);
    expect(await invoiceRow(invoice.id)).toMatchObject({ paymentStatus: "paid" });
    const refused = await call(
      page.action,
      makeRequest("/receipts/bank", {
        method: "POST",
        cookie: manager.cookie,
        form: { ...form, idempotencyKey: "other" },
      }),
    );
    expect(refused.status).toBe(409);
    const badFile = await call(
      page.action,
      multipart("/receipts/bank", manager.cookie, { ...MAPPING, intent: "import", accountName: "Bad" }, "\u0000"),
    );
    expect(badFile.status).toBe(400);
  });
});

describeAccess("who may use the bank statement", [
  {
    name: "accounts",
    handler: statementsApi.loader,
    method: "GET",
    path: "/api/bank-statements",
    allowed: ["manager", "admin"],
  },
  {
    name: "import",
    handler: statementsApi.action,
    method: "POST",
    path: "/api/bank-statements",
    json: {},
    allowed: ["manager", "admin"],
  },
  {
    name: "lines",
    handler: linesApi.loader,
    method: "GET",
    path: "/api/bank-lines?status=unmatched",
    allowed: ["manager", "admin"],
  },
  {
    name: "match",
    handler: matchApi.action,
    method: "POST",
    path: "/api/bank-lines/1/match",
    params: { id: "1" },
    json: {},
    allowed: ["manager", "admin"],
  },
  {
    name: "not a receipt",
    handler: notReceiptApi.action,
    method: "POST",
    path: "/api/bank-lines/1/not-receipt",
    params: { id: "1" },
    allowed: ["manager", "admin"],
  },
  {
    name: "page",
    handler: page.loader,
    method: "GET",
    path: "/receipts/bank",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "page form",
    handler: page.action,
    method: "POST",
    path: "/receipts/bank",
    form: { intent: "not-receipt", lineId: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
]);
