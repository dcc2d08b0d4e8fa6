// Share links and reminders (docs/decisions/1260), beside db/schema.ts, which re-exports them.
import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { clients, invoices, users } from "./schema";

export const SHARE_SCOPES = ["invoice", "client-statement", "agent-statement"] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];
export const REMINDER_CHANNELS = ["whatsapp", "email"] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

// A link that opens one document without signing in. Only the SHA-256 of its 128-bit token is
// kept: a copy of the database opens nothing. `subject_id` names an invoice, a client or an agent
// by `scope`; it has no foreign key, as a link outlives nothing it names (none of them is deleted
// once it has money on it) and a link to a gone subject answers like an unknown one.
export const shareLinks = pgTable(
  "share_links",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    scope: text("scope", { enum: SHARE_SCOPES }).notNull(),
    subjectId: integer("subject_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: uuid("revoked_by").references(() => users.id),
    viewCount: integer("view_count").notNull().default(0),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id),
  },
  (t) => [
    uniqueIndex("share_links_token_hash_unique").on(t.tokenHash),
    // A document's links, newest first.
    index("share_links_subject_idx").on(t.scope, t.subjectId, t.id),
    check("share_links_scope_check", sql`${t.scope} in ('invoice','client-statement','agent-statement')`),
    check("share_links_expiry_check", sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);

// One reminder message sent to a client: by WhatsApp (recorded when the manager opens the
// prefilled chat) or by e-mail (recorded once the mail server accepted it). `sent_by` is null for
// the daily automatic e-mails.
export const reminderSends = pgTable(
  "reminder_sends",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "restrict" }),
    channel: text("channel", { enum: REMINDER_CHANNELS }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    sentBy: uuid("sent_by").references(() => users.id),
    // The business day it counts for (APP_TIME_ZONE).
    day: date("day").notNull(),
  },
  (t) => [
    index("reminder_sends_client_idx").on(t.clientId, t.id),
    check("reminder_sends_channel_check", sql`${t.channel} in ('whatsapp','email')`),
  ],
);

// The invoices a reminder named, each at the level it was sent for. The primary key is the rule
// "each (invoice, level) is sent at most once": two instances recording the same reminder at
// once cannot both insert it, and the loser's transaction records nothing.
export const reminderInvoices = pgTable(
  "reminder_invoices",
  {
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    level: integer("level").notNull(),
    sendId: integer("send_id")
      .notNull()
      .references(() => reminderSends.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.level] }), index("reminder_invoices_send_idx").on(t.sendId)],
);

// The automatic e-mail round of a business day, claimed by the one instance that inserts its row.
export const reminderRuns = pgTable("reminder_runs", {
  day: date("day").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  sent: integer("sent").notNull().default(0),
});

export type ShareLink = typeof shareLinks.$inferSelect;
