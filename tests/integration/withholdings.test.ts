// Withholding certificates and the Withholding page (docs/decisions/1240): each withholding is
// outstanding until its certificate is recorded (number and date received), once, even when two
// record it at the same moment; the page, its CSV and GET /api/withholdings filter by status;
// reversed withholdings are left out; bad input is refused naming the field; who may.
import { beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import { listWithholdings } from "../../app/presenters/withholdings.server";
import * as certificateApi from "../../app/routes/api.withholdings.$id.certificate";
import * as withholdingsApi from "../../app/routes/api.withholdings";
import * as page from "../../app/routes/_app.withholdings";
import * as exportRoute from "../../app/routes/_app.withholdings.export";
import { recordCertificate } from "../../app/services/receipts/record-certificate.server";
import { recordReceipt } from "../../app/services/receipts/record-receipt.server";
import { reverseReceipt } from "../../app/services/receipts/reverse-receipt.server";
import { addDays, todayIn } from "../../app/utils/dates";
import { describeAccess } from "../access";
import { expectEveryEventWorded } from "../audit-words";
import { createAgent, createClient, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { invoiceOfTenThousand } from "../money-entries";

let manager: { user: User; cookie: string };
let admin: { user: User; cookie: string };
let agentId: number;
const today = () => todayIn("Africa/Lagos");

beforeAll(async () => {
  manager = await loginAs("manager");
  admin = await loginAs("admin");
  agentId = (await createAgent()).id;
});

async function withheldReceipt() {
  const clientId = (await createClient({ taxRate: "7.50", whtRate: "5.00", withholdsVat: true })).id;
  await invoiceOfTenThousand(manager.user, agentId, clientId);
  const made = await recordReceipt(manager.user, { clientId, amount: "8837.21" });
  if (!made.ok) throw new Error(made.message);
  return { clientId, receipt: made.receipt, withholdingId: made.receipt.allocations[0].withholdingId! };
}

describe("certificates", () => {
  it("turn a withholding from outstanding to received, once, racing or not", async () => {
    const { clientId, withholdingId, receipt } = await withheldReceipt();
    // 10,000 at VAT 7.5, WHT 5, VAT withheld: 465.12 + 697.67, cash 8,837.21.
    expect(receipt.allocations[0]).toMatchObject({ wht: "465.12", vatWithheld: "697.67", cash: "8837.21" });
    const outstanding = await listWithholdings(manager.user, { clientId, status: "outstanding" });
    expect(outstanding.items).toEqual([
      expect.objectContaining({ id: withholdingId, wht: "465.12", vat: "697.67", status: "outstanding" }),
    ]);
    const raced = await Promise.all([
      recordCertificate(manager.user, withholdingId, { certificateNo: "WHT/2026/1", receivedOn: today() }),
      recordCertificate(manager.user, withholdingId, { certificateNo: "WHT/2026/2", receivedOn: today() }),
    ]);
    expect(raced.filter((r) => r.ok)).toHaveLength(1);
    expect(raced.filter((r) => !r.ok && r.status === 409)).toHaveLength(1);
    expect((await listWithholdings(manager.user, { clientId, status: "outstanding" })).items).toEqual([]);
    expect((await listWithholdings(manager.user, { clientId, status: "received" })).items).toEqual([
      expect.objectContaining({ id: withholdingId, status: "received", receivedOn: today() }),
    ]);
    await expectEveryEventWorded();
  });

  it("refuses bad input naming the field, an unknown or reversed withholding, with nothing written", async () => {
    const { withholdingId, receipt } = await withheldReceipt();
    const refused = async (input: Record<string, unknown>, status: number, field?: string) => {
      const result = await recordCertificate(manager.user, withholdingId, input);
      expect(result, JSON.stringify(input)).toMatchObject({ ok: false, status });
      if (field && !result.ok) expect(Object.keys(result.fieldErrors ?? {})).toContain(field);
    };
    await refused({ certificateNo: "", receivedOn: today() }, 400, "certificateNo");
    await refused({ certificateNo: "C1", receivedOn: "2026-02-30" }, 400, "receivedOn");
    await refused({ certificateNo: "C1", receivedOn: addDays(today(), 1) }, 400, "receivedOn");
    await refused({ certificateNo: "C1", receivedOn: addDays(today(), -400) }, 400, "receivedOn");
    expect(await recordCertificate(manager.user, 99999999, { certificateNo: "C", receivedOn: today() })).toMatchObject({
      status: 404,
    });
    expect(await reverseReceipt(admin.user, receipt.id, { reason: "Wrong" })).toMatchObject({ ok: true });
    await refused({ certificateNo: "C1", receivedOn: today() }, 409);
    expect((await listWithholdings(manager.user, { clientId: receipt.clientId })).items).toEqual([]);
  });
});

describe("the Withholding page, its CSV and its JSON", () => {
  it("lists by status, records a certificate from the form, and answers the JSON calls", async () => {
    const { clientId, withholdingId } = await withheldReceipt();
    const shown = await call(
      page.loader,
      makeRequest(`/withholdings?clientId=${clientId}`, { cookie: manager.cookie }),
    );
    expect(shown.body).toMatchObject({ rows: [{ id: withholdingId, status: "outstanding" }] });
    const posted = await call(
      page.action,
      makeRequest(`/withholdings?clientId=${clientId}`, {
        method: "POST",
        cookie: manager.cookie,
        form: { withholdingId: String(withholdingId), certificateNo: "FIRS-9", receivedOn: today() },
      }),
    );
    expect(posted.status).toBe(302);
    const csv = await call(
      exportRoute.loader,
      makeRequest(`/withholdings/export?clientId=${clientId}`, { cookie: manager.cookie }),
    );
    expect(String(csv.body)).toContain("FIRS-9");
    const json = await call(
      withholdingsApi.loader,
      makeRequest(`/api/withholdings?status=received&clientId=${clientId}&limit=10`, { cookie: manager.cookie }),
    );
    expect(json.body).toEqual([expect.objectContaining({ id: withholdingId, certificateNo: "FIRS-9" })]);
    expect(
      (await call(withholdingsApi.loader, makeRequest("/api/withholdings?status=lost", { cookie: manager.cookie })))
        .status,
    ).toBe(400);
    const other = await withheldReceipt();
    const viaApi = await call(
      certificateApi.action,
      makeRequest(`/api/withholdings/${other.withholdingId}/certificate`, {
        method: "POST",
        cookie: manager.cookie,
        json: { certificateNo: "API-1", receivedOn: today() },
      }),
      { id: String(other.withholdingId) },
    );
    expect(viaApi).toMatchObject({ status: 201, body: { certificateNo: "API-1", withholdingId: other.withholdingId } });
  });
});

describeAccess("withholding", [
  {
    name: "page",
    handler: page.loader,
    method: "GET",
    path: "/withholdings",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "json",
    handler: withholdingsApi.loader,
    method: "GET",
    path: "/api/withholdings",
    allowed: ["manager", "admin"],
  },
  {
    name: "certificate",
    handler: certificateApi.action,
    method: "POST",
    path: "/api/withholdings/1/certificate",
    params: { id: "1" },
    json: {},
    allowed: ["manager", "admin"],
  },
]);
