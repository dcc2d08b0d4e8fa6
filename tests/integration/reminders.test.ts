// Reminders (docs/decisions/1260), on both drivers: what is due is computed from the data; a
// client switched off and an invoice paid drop out; a send is recorded once per (invoice, level)
// even when two instances record, e-mail or run the day's e-mails at the same moment; a repeat is
// idempotent; bad input and e-mail without SMTP write nothing; the message's statement link opens
// once the send is recorded.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import {
  dueReminders,
  emailReminder,
  recordReminderSent,
  runDailyReminderEmails,
} from "../../app/models/reminders.server";
import { openShareLink } from "../../app/models/share-link.server";
import * as dueApi from "../../app/routes/api.reminders.due";
import * as emailApi from "../../app/routes/api.reminders.email";
import * as sentApi from "../../app/routes/api.reminders.sent";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { addDays, todayIn } from "../../app/utils/dates";
import { resetEnv } from "../../app/utils/env.server";
import type { Mail } from "../../app/utils/mailer.server";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

const ORIGIN = "http://localhost";
const NOW = new Date();
const TODAY = todayIn("Africa/Lagos", NOW);
let manager: { user: User; cookie: string };
let staff: { user: User; cookie: string };
let agentId: number;

async function invoiceDue(clientId: number, dueDate: string, amount = "1000.00") {
  const delivery = await createDelivery({
    agentId,
    clientId,
    createdBy: manager.user.id,
    date: dueDate,
    tons: "1.000",
    sellingRate: amount,
  });
  // Payment terms 0: due the day it is issued.
  const made = await createInvoiceForDelivery(
    manager.user,
    { deliveryId: delivery.id },
    { now: new Date(`${dueDate}T12:00:00Z`) },
  );
  if (!made.ok) throw new Error(made.message);
  expect(made.invoice.expectedPaymentDate).toBe(dueDate);
  return made.invoice;
}

async function sentRows(clientId: number) {
  const db = await getDb();
  const result = await db.execute(sql`
    select r.invoice_id as "invoiceId", r.level from reminder_invoices r
      join reminder_sends s on s.id = r.send_id where s.client_id = ${clientId} order by 1, 2`);
  return rowsOf<{ invoiceId: number; level: number }>(result).map((r) => ({
    invoiceId: Number(r.invoiceId),
    level: Number(r.level),
  }));
}

beforeAll(async () => {
  manager = await loginAs("manager");
  staff = await loginAs("staff");
  // The automatic e-mails' links are made in the first admin's name (there always is one).
  await loginAs("admin");
  agentId = (await createAgent()).id;
});

afterAll(() => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetEnv();
});

describe("what is due", () => {
  it("names each client's invoices at their levels; a client switched off and an invoice paid drop out", async () => {
    const client = await createClient({ name: "Due Foods", paymentTermsDays: 0, whatsappNumber: "+2348031234567" });
    const off = await createClient({ name: "Quiet Oils", paymentTermsDays: 0, remindersOff: true });
    const week = await invoiceDue(client.id, addDays(TODAY, -10), "1500.00");
    const today = await invoiceDue(client.id, TODAY, "250.50");
    const paid = await invoiceDue(client.id, addDays(TODAY, -40), "300.00");
    await invoiceDue(client.id, addDays(TODAY, 5), "99.00"); // before its first level (-3)
    await invoiceDue(off.id, addDays(TODAY, -30));
    expect((await recordPayment(manager.user, { invoiceId: paid.id, amount: "300.00", reference: "R1" })).ok).toBe(
      true,
    );

    const { items } = await dueReminders(manager.user, { origin: ORIGIN, now: NOW });
    const mine = items.find((r) => r.clientId === client.id)!;
    expect(items.some((r) => r.clientId === off.id)).toBe(false);
    expect(mine.invoices.map((i) => [i.id, i.level])).toEqual([
      [week.id, 7],
      [today.id, 0],
    ]);
    expect(mine.level).toBe(7);
    expect(mine.message).toContain(`Invoice ${week.invoiceNo}: ₦1,500.00`);
    expect(mine.message).toContain(`Invoice ${today.invoiceNo}: ₦250.50`);
    expect(mine.message).toMatch(/Your statement: http:\/\/localhost\/s\/[A-Za-z0-9_-]{22}/);
    expect(mine.whatsappUrl).toBe(`https://wa.me/2348031234567?text=${encodeURIComponent(mine.message)}`);

    const api = await call(dueApi.loader, makeRequest("/api/reminders/due", { cookie: manager.cookie }));
    expect(api.status).toBe(200);
    expect((api.body as unknown[]).find((r) => (r as { clientId: number }).clientId === client.id)).toMatchObject({
      clientId: client.id,
      level: 7,
      invoices: [
        { id: week.id, level: 7 },
        { id: today.id, level: 0 },
      ],
      message: mine.message,
      whatsappUrl: mine.whatsappUrl,
    });
    expect((await call(dueApi.loader, makeRequest("/api/reminders/due", { cookie: staff.cookie }))).status).toBe(403);
  });
});

describe("recording a send", () => {
  it("two instances recording the same reminder at once record each (invoice, level) once", async () => {
    const client = await createClient({ name: "Race Mills", paymentTermsDays: 0, whatsappNumber: "08031110000" });
    const a = await invoiceDue(client.id, addDays(TODAY, -14));
    const b = await invoiceDue(client.id, addDays(TODAY, -3));
    const input = { clientId: client.id, channel: "whatsapp", invoiceIds: [a.id, b.id] };
    const results = await Promise.all([
      recordReminderSent(manager.user, input, { origin: ORIGIN, now: NOW }),
      recordReminderSent(manager.user, input, { origin: ORIGIN, now: NOW }),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    const recorded = results.filter((r) => r.ok && !r.alreadySent);
    expect(recorded).toHaveLength(1);
    expect(await sentRows(client.id)).toEqual(
      [
        { invoiceId: a.id, level: 14 },
        { invoiceId: b.id, level: 0 },
      ].sort((x, y) => x.invoiceId - y.invoiceId),
    );
    const db = await getDb();
    const sends = await db.select().from(schema.reminderSends).where(eq(schema.reminderSends.clientId, client.id));
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ channel: "whatsapp", sentBy: manager.user.id, day: TODAY });
    // Nothing more is due for it today. A week later the one due 3 days ago has reached 7; the
    // other (21 days late) is still at 14, which was sent.
    expect((await dueReminders(null, { origin: ORIGIN, now: NOW, clientIds: [client.id] })).items).toEqual([]);
    const later = await dueReminders(null, {
      origin: ORIGIN,
      now: new Date(NOW.getTime() + 7 * 86_400_000),
      clientIds: [client.id],
    });
    expect(later.items[0].invoices.map((i) => [i.id, i.level])).toEqual([[b.id, 7]]);
  });

  it("the JSON call: 201, then 200 already sent with nothing written; bad input a 400 naming it", async () => {
    const client = await createClient({ name: "Api Oils", paymentTermsDays: 0 });
    const other = await createClient({ name: "Other Api Oils", paymentTermsDays: 0 });
    const a = await invoiceDue(client.id, addDays(TODAY, -7));
    const foreign = await invoiceDue(other.id, addDays(TODAY, -7));
    const post = (json: unknown, cookie = manager.cookie) =>
      call(sentApi.action, makeRequest("/api/reminders/sent", { method: "POST", cookie, json }));
    expect((await post({ clientId: client.id, channel: "whatsapp", invoiceIds: [a.id] }, staff.cookie)).status).toBe(
      403,
    );
    for (const bad of [
      { clientId: client.id, channel: "sms", invoiceIds: [a.id] },
      { clientId: client.id, channel: "whatsapp", invoiceIds: [] },
      { clientId: client.id, channel: "whatsapp", invoiceIds: "1" },
      { clientId: "x", channel: "whatsapp", invoiceIds: [a.id] },
      { clientId: client.id, channel: "whatsapp", invoiceIds: [foreign.id] },
    ]) {
      const r = await post(bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body).toHaveProperty("message");
    }
    expect(await sentRows(client.id)).toEqual([]);
    const first = await post({ clientId: client.id, channel: "whatsapp", invoiceIds: [a.id] });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ recorded: [{ invoiceId: a.id, level: 7 }], alreadySent: false });
    const again = await post({ clientId: client.id, channel: "whatsapp", invoiceIds: [a.id] });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ sendId: null, recorded: [], alreadySent: true });
    expect(await sentRows(client.id)).toEqual([{ invoiceId: a.id, level: 7 }]);
  });

  it("the message's statement link opens once the send is recorded, on that client's statement only", async () => {
    const client = await createClient({ name: "Link Foods", paymentTermsDays: 0 });
    const a = await invoiceDue(client.id, addDays(TODAY, -7));
    const [due] = (await dueReminders(null, { origin: ORIGIN, now: NOW, clientIds: [client.id] })).items;
    const token = due.statementUrl.slice(due.statementUrl.lastIndexOf("/") + 1);
    expect(await openShareLink(token, "10.9.9.1")).toMatchObject({ ok: false, status: 404 });
    await recordReminderSent(
      manager.user,
      { clientId: client.id, channel: "whatsapp", invoiceIds: [a.id] },
      { origin: ORIGIN, now: NOW },
    );
    const opened = await openShareLink(token, "10.9.9.2");
    expect(opened).toMatchObject({ ok: true, link: { scope: "client-statement", subjectId: client.id } });
  });
});

describe("e-mail", () => {
  it("without SMTP: a 503 with Retry-After and nothing recorded", async () => {
    delete process.env.SMTP_URL;
    resetEnv();
    const client = await createClient({ name: "No Mail Ltd", paymentTermsDays: 0, email: "pay@nomail.example" });
    await invoiceDue(client.id, addDays(TODAY, -7));
    const r = await call(
      emailApi.action,
      makeRequest("/api/reminders/email", { method: "POST", cookie: manager.cookie, json: { clientId: client.id } }),
    );
    expect(r.status).toBe(503);
    expect(Number(r.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await sentRows(client.id)).toEqual([]);
    // Bad input is told first, with or without SMTP: a 400, never a 5xx.
    const bad = await call(
      emailApi.action,
      makeRequest("/api/reminders/email", { method: "POST", cookie: manager.cookie, json: { clientId: "x" } }),
    );
    expect(bad.status).toBe(400);
  });

  it("a mail server that refuses: 503, nothing recorded; two instances sending at once send once", async () => {
    process.env.SMTP_URL = "smtp://127.0.0.1:1";
    process.env.MAIL_FROM = "PKS <accounts@pks.example>";
    resetEnv();
    const client = await createClient({ name: "Mail Race Ltd", paymentTermsDays: 0, email: "pay@race.example" });
    await invoiceDue(client.id, addDays(TODAY, -30));
    const refusing = async () => {
      throw new Error("connection refused");
    };
    const failed = await emailReminder(
      manager.user,
      { clientId: client.id },
      { origin: ORIGIN, now: NOW, mailer: refusing },
    );
    expect(failed).toMatchObject({ ok: false, status: 503, retryAfterSeconds: expect.any(Number) });
    expect(await sentRows(client.id)).toEqual([]);

    const delivered: Mail[] = [];
    const mailer = async (mail: Mail) => {
      delivered.push(mail);
      await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const results = await Promise.all([
      emailReminder(manager.user, { clientId: client.id }, { origin: ORIGIN, now: NOW, mailer }),
      emailReminder(manager.user, { clientId: client.id }, { origin: ORIGIN, now: NOW, mailer }),
    ]);
    expect(delivered).toHaveLength(1);
    expect(delivered[0].to).toBe("pay@race.example");
    expect(results.filter((r) => r.ok && !r.alreadySent)).toHaveLength(1);
    expect(await sentRows(client.id)).toHaveLength(1);
  });

  it("the day's automatic e-mails: one instance claims the day, each client gets one", async () => {
    process.env.SMTP_URL = "smtp://127.0.0.1:1";
    process.env.MAIL_FROM = "accounts@pks.example";
    resetEnv();
    const client = await createClient({ name: "Daily Ltd", paymentTermsDays: 0, email: "pay@daily.example" });
    await invoiceDue(client.id, addDays(TODAY, -14));
    const delivered: Mail[] = [];
    const mailer = async (mail: Mail) => {
      delivered.push(mail);
    };
    const day = new Date(NOW.getTime() + 86_400_000);
    const runs = await Promise.all([
      runDailyReminderEmails({ origin: ORIGIN, now: day, mailer }),
      runDailyReminderEmails({ origin: ORIGIN, now: day, mailer }),
    ]);
    expect(runs.filter((r) => r.claimed)).toHaveLength(1);
    expect(delivered.filter((m) => m.to === "pay@daily.example")).toHaveLength(1);
    expect((await runDailyReminderEmails({ origin: ORIGIN, now: day, mailer })).claimed).toBe(false);
    expect(delivered.filter((m) => m.to === "pay@daily.example")).toHaveLength(1);
  });
});
