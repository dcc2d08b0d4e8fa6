// Payment reminders (docs/decisions/1260). What is due is computed from the data each time (the
// schedule's rule, app/rules/reminders.ts): a client's invoices with a balance whose highest level
// reached was not sent. A send is recorded per (invoice, level) under that primary key, so two
// instances recording or e-mailing the same reminder at once record it once, and the loser writes
// nothing. Managers and admins (`client.statement`: a reminder carries the statement's link).
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import * as z from "zod";
import { getDb, rowsOf, schema, type Executor, type ReminderChannel } from "~/db.server";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import { balanceSql, owedSql } from "~/rules/invoices.server";
import { whatsappUrl } from "~/rules/phone";
import { clientReminder, reminderMessage, type DueInvoice, type OpenInvoice } from "~/rules/reminders";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { fieldErrorsOf } from "~/utils/field-errors";
import { mailConfigured, MAIL_RETRY_AFTER_SECONDS, sendMail, type Mailer } from "~/utils/mailer.server";
import { fail, Refusal, type Failure } from "~/utils/result";
import { MAX_ID } from "~/utils/params";
import { getBusinessDetails } from "./business.server";
import { getSettings } from "./settings.server";
import { ensureReminderLink, reminderToken, shareUrl } from "./share-link.server";
import { reminderEmail } from "./reminder-email.server";

const inv = schema.invoices;
const c = schema.clients;
/** Clients a page of the Reminders list (and a batch of the daily e-mails) reads. */
export const REMINDER_PAGE_SIZE = 50;
/** Invoices one reminder may name: more is a client to phone, not to message. */
export const MAX_REMINDER_INVOICES = 200;

export type DueReminder = {
  clientId: number;
  clientName: string;
  whatsappNumber: string | null;
  email: string | null;
  level: number;
  invoices: DueInvoice[];
  message: string;
  statementUrl: string;
  /** The prefilled chat, or null when the client has no WhatsApp number. */
  whatsappUrl: string | null;
};

type Candidate = OpenInvoice & { clientId: number };

/** The open invoices of the clients after `after` that could be due, a page of clients at a time. */
async function candidates(
  db: Executor,
  today: string,
  levels: number[],
  clientIds: number[] | null,
  after: number,
  limit: number,
) {
  const earliest = Math.min(...levels);
  // An invoice reaches its first level `earliest` days from its due date: none is due before.
  const dueBy = sql`(${today}::date - ${earliest}::int)`;
  const base = and(eq(c.remindersOff, false), owedSql(), sql`${inv.expectedPaymentDate} <= ${dueBy}`);
  const pageOfClients = clientIds
    ? sql`${inv.clientId} in (${sql.join(
        clientIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql`${inv.clientId} in (
        select distinct i2.client_id from invoices i2 join clients c2 on c2.id = i2.client_id
        where c2.reminders_off = false and i2.client_id > ${after}
          and i2.amount_paid + i2.amount_withheld + i2.amount_credited < i2.amount and i2.payment_status <> 'void'
          and i2.expected_payment_date <= ${dueBy}
        order by 1 limit ${limit + 1})`;
  const rows = await db
    .select({
      id: inv.id,
      clientId: inv.clientId,
      invoiceNo: inv.invoiceNo,
      balance: balanceSql(),
      dueDate: inv.expectedPaymentDate,
      highestSent: sql<number | null>`(select max(r.level) from reminder_invoices r where r.invoice_id = ${inv.id})`,
    })
    .from(inv)
    .innerJoin(c, eq(c.id, inv.clientId))
    .where(and(base, pageOfClients))
    .orderBy(asc(inv.clientId), asc(inv.id));
  return rows.map((r): Candidate => ({ ...r, highestSent: r.highestSent === null ? null : Number(r.highestSent) }));
}

type Context = { origin: string; now: Date; db?: Executor };

/** The due reminders of clients after `after` (by id), a page of them, with the cursor of the next. */
export async function dueReminders(
  actor: Actor | null,
  {
    origin,
    now,
    db,
    after = 0,
    limit = REMINDER_PAGE_SIZE,
    clientIds = null,
  }: Context & {
    after?: number;
    limit?: number;
    clientIds?: number[] | null;
  },
): Promise<{ items: DueReminder[]; nextCursor: number | null }> {
  if (actor) assertCan(actor, "client.statement", "reminders");
  db ??= await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const [settings, business] = await Promise.all([getSettings(db), getBusinessDetails(db)]);
  const levels = settings.reminderLevels;
  if (!levels.length) return { items: [], nextCursor: null };
  const rows = await candidates(db, today, levels, clientIds, after, limit);
  const byClient = new Map<number, Candidate[]>();
  for (const row of rows) byClient.set(row.clientId, [...(byClient.get(row.clientId) ?? []), row]);
  const ids = [...byClient.keys()];
  const more = clientIds === null && ids.length > limit;
  const pageIds = more ? ids.slice(0, limit) : ids;
  if (!pageIds.length) return { items: [], nextCursor: null };
  const clients = await db
    .select({ id: c.id, name: c.name, whatsappNumber: c.whatsappNumber, email: c.email, remindersOff: c.remindersOff })
    .from(c)
    .where(inArray(c.id, pageIds))
    .orderBy(asc(c.id));
  const items: DueReminder[] = [];
  for (const client of clients) {
    const reminder = clientReminder(client, byClient.get(client.id) ?? [], today, levels);
    if (!reminder) continue;
    const statementUrl = shareUrl(origin, reminderToken(client.id, today));
    const message = reminderMessage({
      clientName: client.name,
      businessName: business.companyName,
      invoices: reminder.invoices,
      today,
      statementUrl,
    });
    items.push({
      clientId: client.id,
      clientName: client.name,
      whatsappNumber: client.whatsappNumber,
      email: client.email,
      level: reminder.level,
      invoices: reminder.invoices,
      message,
      statementUrl,
      whatsappUrl: client.whatsappNumber ? whatsappUrl(client.whatsappNumber, message) : null,
    });
  }
  return { items, nextCursor: more ? pageIds[pageIds.length - 1] : null };
}

/** One client's reminder due today, or null. */
async function dueFor(db: Executor, clientId: number, origin: string, now: Date) {
  const { items } = await dueReminders(null, { origin, now, db, clientIds: [clientId] });
  return items[0] ?? null;
}

const SentSchema = z.object({
  clientId: z.coerce
    .number({ error: "clientId must be an id" })
    .int("clientId must be an id")
    .min(1, "clientId must be an id")
    .max(MAX_ID, "clientId must be an id"),
  channel: z.enum(["whatsapp", "email"], { error: "channel must be whatsapp or email" }),
  invoiceIds: z
    .array(z.coerce.number().int().min(1).max(MAX_ID), { error: "invoiceIds must be a list of invoice ids" })
    .min(1, "invoiceIds must name at least one invoice")
    .max(MAX_REMINDER_INVOICES, `invoiceIds may name at most ${MAX_REMINDER_INVOICES} invoices`),
});

export type RecordedReminder = {
  ok: true;
  /** The send recorded, or null when every invoice named had its level recorded already. */
  sendId: number | null;
  recorded: { invoiceId: number; level: number }[];
  alreadySent: boolean;
};

/**
 * Records that a client was reminded (`channel`) of `invoiceIds` today, each at the level due.
 * Idempotent: invoices whose level is recorded already are left as they are, and a repeat records
 * nothing (200, `alreadySent`). An invoice that is not this client's or owes nothing: 400.
 * `send` (the e-mail) runs inside the transaction, after the claim: a failed send records nothing.
 */
export async function recordReminderSent(
  actor: Actor | null,
  input: Record<string, unknown>,
  { origin, now, send }: Context & { send?: (reminder: DueReminder) => Promise<void> },
): Promise<RecordedReminder | Failure<400 | 403 | 404 | 503>> {
  if (actor) {
    const refused = refuse(actor, "client.statement", `reminders/client/${String(input.clientId)}`);
    if (refused) return refused;
  }
  const parsed = SentSchema.safeParse(input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const { clientId, channel } = parsed.data;
  const wanted = [...new Set(parsed.data.invoiceIds)];
  const db = await getDb();
  const [client] = await db.select({ id: c.id }).from(c).where(eq(c.id, clientId));
  if (!client) return fail(404, "Client not found");
  try {
    return await db.transaction(async (tx) => {
      const due = await dueFor(tx, clientId, origin, now);
      const dueById = new Map((due?.invoices ?? []).map((i) => [i.id, i]));
      const named = await tx.select({ id: inv.id, clientId: inv.clientId }).from(inv).where(inArray(inv.id, wanted));
      const foreign = wanted.filter((id) => !named.some((n) => n.id === id && n.clientId === clientId));
      if (foreign.length) throw new Refusal(fail(400, `Invoice id ${foreign[0]} is not an invoice of this client`));
      const toRecord = wanted.flatMap((id) => (dueById.has(id) ? [dueById.get(id)!] : []));
      if (!toRecord.length) {
        const owing = await tx
          .select({ id: inv.id })
          .from(inv)
          .where(and(inArray(inv.id, wanted), owedSql()));
        if (!owing.length) throw new Refusal(fail(400, "None of these invoices has a balance to remind of"));
        return { ok: true as const, sendId: null, recorded: [], alreadySent: true };
      }
      const day = todayIn(env().APP_TIME_ZONE, now);
      const [sent] = await tx
        .insert(schema.reminderSends)
        .values({ clientId, channel: channel as ReminderChannel, sentAt: now, sentBy: actor?.id ?? null, day })
        .returning({ id: schema.reminderSends.id });
      // The primary key (invoice, level) is the claim: a concurrent recorder waits here for the
      // other's commit and then inserts nothing.
      const recorded = await tx
        .insert(schema.reminderInvoices)
        .values(toRecord.map((i) => ({ invoiceId: i.id, level: i.level, sendId: sent.id })))
        .onConflictDoNothing()
        .returning({ invoiceId: schema.reminderInvoices.invoiceId, level: schema.reminderInvoices.level });
      if (!recorded.length) throw new AlreadySent();
      await ensureReminderLink(tx, clientId, day, actor?.id ?? null, now);
      if (send && due) await send(due);
      return { ok: true as const, sendId: sent.id, recorded, alreadySent: false };
    });
  } catch (error) {
    if (error instanceof Refusal) return error.failure as Failure<400>;
    if (error instanceof AlreadySent) return { ok: true, sendId: null, recorded: [], alreadySent: true };
    if (error instanceof MailFailed) {
      return { ok: false, status: 503, message: error.message, retryAfterSeconds: MAIL_RETRY_AFTER_SECONDS };
    }
    throw error;
  }
}

class AlreadySent extends Error {}
class MailFailed extends Error {}

/**
 * E-mails a client its reminder due today and records it, once: the claim is taken first and the
 * message sent inside the same transaction, so a mail server that refuses leaves nothing recorded
 * (503 with Retry-After), and two instances sending at once send it once.
 */
export async function emailReminder(
  actor: Actor | null,
  input: Record<string, unknown>,
  { origin, now, mailer = sendMail }: Context & { mailer?: Mailer },
): Promise<RecordedReminder | Failure<400 | 403 | 404 | 409 | 503>> {
  if (actor) {
    const refused = refuse(actor, "client.statement", `reminders/client/${String(input.clientId)}/email`);
    if (refused) return refused;
  }
  // A request that could never be sent is told so first: bad input is a 400 with or without SMTP.
  const parsedId = SentSchema.shape.clientId.safeParse(input.clientId);
  if (!parsedId.success) return fail(400, "clientId must be an id", { clientId: ["clientId must be an id"] });
  if (!mailConfigured()) {
    return {
      ok: false,
      status: 503,
      message: "E-mail is not set up on this server",
      retryAfterSeconds: MAIL_RETRY_AFTER_SECONDS,
    };
  }
  const clientId = parsedId.data;
  const db = await getDb();
  const [client] = await db.select({ id: c.id, email: c.email }).from(c).where(eq(c.id, clientId));
  if (!client) return fail(404, "Client not found");
  if (!client.email)
    return fail(400, "This client has no e-mail address", { email: ["This client has no e-mail address"] });
  const due = await dueFor(db, clientId, origin, now);
  if (!due) {
    // Sent already today (by anyone, on any channel): the repeat is answered, not refused.
    const day = todayIn(env().APP_TIME_ZONE, now);
    const [today] = await db
      .select({ id: schema.reminderSends.id })
      .from(schema.reminderSends)
      .where(and(eq(schema.reminderSends.clientId, clientId), eq(schema.reminderSends.day, day)))
      .limit(1);
    if (today) return { ok: true, sendId: null, recorded: [], alreadySent: true };
    return fail(409, "Nothing is due a reminder for this client today");
  }
  const business = await getBusinessDetails(db);
  return recordReminderSent(
    actor,
    { clientId, channel: "email", invoiceIds: due.invoices.map((i) => i.id) },
    {
      origin,
      now,
      send: async (reminder) => {
        try {
          await mailer({ to: client.email!, ...reminderEmail(reminder, business.companyName) });
        } catch {
          throw new MailFailed("The mail server did not take the message; nothing was recorded. Try again later.");
        }
      },
    },
  );
}

/** The reminders recorded for an invoice, newest first (the invoice page). */
export async function invoiceReminders(invoiceId: number, db?: Executor) {
  db ??= await getDb();
  const result = await db.execute(sql`
    select s.id, s.channel, s.sent_at as "sentAt", r.level, u.email as "sentBy"
    from reminder_invoices r
      join reminder_sends s on s.id = r.send_id
      left join users u on u.id = s.sent_by
    where r.invoice_id = ${invoiceId}
    order by s.id desc
    limit 50`);
  return rowsOf<{ id: number; channel: ReminderChannel; sentAt: string | Date; level: number; sentBy: string | null }>(
    result,
  ).map((r) => ({ ...r, sentAt: new Date(r.sentAt).toISOString(), level: Number(r.level) }));
}

/** Whether the daily e-mails go out by themselves (REMINDERS_AUTO_EMAIL=1 and SMTP configured). */
export const autoEmailOn = () => env().REMINDERS_AUTO_EMAIL === "1" && mailConfigured();

/**
 * The day's automatic e-mails: the instance that inserts the day's `reminder_runs` row sends them;
 * every other finds it and does nothing. Each send is also claimed per (invoice, level), so a
 * manager pressing Send meanwhile cannot make a client get two. A run that dies part-way leaves
 * the rest to the next day, which offers only the highest level reached (the schedule's rule).
 */
export async function runDailyReminderEmails({
  origin,
  now = new Date(),
  mailer = sendMail,
}: {
  origin: string;
  now?: Date;
  mailer?: Mailer;
}): Promise<{ claimed: boolean; sent: number }> {
  if (!mailConfigured()) return { claimed: false, sent: 0 };
  const db = await getDb();
  const day = todayIn(env().APP_TIME_ZONE, now);
  const [claim] = await db
    .insert(schema.reminderRuns)
    .values({ day, startedAt: now })
    .onConflictDoNothing()
    .returning({ day: schema.reminderRuns.day });
  if (!claim) return { claimed: false, sent: 0 };
  let sent = 0;
  let after = 0;
  for (;;) {
    const page = await dueReminders(null, { origin, now, after });
    for (const reminder of page.items) {
      if (!reminder.email) continue;
      const result = await emailReminder(null, { clientId: reminder.clientId }, { origin, now, mailer });
      if (result.ok && result.sendId) sent += 1;
    }
    if (page.nextCursor === null) break;
    after = page.nextCursor;
  }
  await db.update(schema.reminderRuns).set({ finishedAt: new Date(), sent }).where(eq(schema.reminderRuns.day, day));
  return { claimed: true, sent };
}
