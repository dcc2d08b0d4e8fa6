// A reminder e-mail through a real SMTP conversation (docs/decisions/1260): the test starts its
// own SMTP server (the smtp-server package) on 127.0.0.1, points SMTP_URL at it, and sends through
// the app's mailer (nodemailer). The message arrives once, from MAIL_FROM to the client, in text
// and HTML, both with the statement link; the send is recorded; pressing Send again sends nothing.
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import * as emailApi from "../../app/routes/api.reminders.email";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { addDays, todayIn } from "../../app/utils/dates";
import { resetEnv } from "../../app/utils/env.server";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
let server: SMTPServer;
let manager: { user: User; cookie: string };

/** The raw message's quoted-printable parts made readable (soft breaks joined, =XX decoded). */
const readable = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.MAIL_FROM = "PKS Accounts <accounts@pks.example>";
  resetEnv();
  manager = await loginAs("manager");
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetEnv();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("a reminder by e-mail", () => {
  it("arrives once, in text and HTML, with the statement link", async () => {
    const agentId = (await createAgent()).id;
    const client = await createClient({ name: "Smtp Foods", paymentTermsDays: 0, email: "pay@smtpfoods.example" });
    const due = addDays(todayIn("Africa/Lagos"), -7);
    const delivery = await createDelivery({
      agentId,
      clientId: client.id,
      createdBy: manager.user.id,
      date: due,
      tons: "1.000",
      sellingRate: "1234.50",
    });
    const made = await createInvoiceForDelivery(
      manager.user,
      { deliveryId: delivery.id },
      { now: new Date(`${due}T12:00:00Z`) },
    );
    if (!made.ok) throw new Error(made.message);

    const send = () =>
      call(
        emailApi.action,
        makeRequest("/api/reminders/email", { method: "POST", cookie: manager.cookie, json: { clientId: client.id } }),
      );
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ recorded: [{ invoiceId: made.invoice.id, level: 7 }], alreadySent: false });
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail.from).toBe("accounts@pks.example");
    expect(mail.to).toEqual(["pay@smtpfoods.example"]);
    const raw = readable(mail.raw);
    expect(raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(raw).toMatch(/Content-Type: text\/plain/i);
    expect(raw).toMatch(/Content-Type: text\/html/i);
    const links = raw.match(/http:\/\/localhost\/s\/[A-Za-z0-9_-]{22}/g) ?? [];
    // The text part names it and the HTML part links it: the same link.
    expect(links.length).toBeGreaterThanOrEqual(2);
    expect(new Set(links).size).toBe(1);
    expect(raw).toContain(`href="${links[0]}"`);
    expect(raw).toContain(`Invoice ${made.invoice.invoiceNo}`);
    expect(raw).toContain("1,234.50");

    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ alreadySent: true });
    expect(received).toHaveLength(1);
  });
});
