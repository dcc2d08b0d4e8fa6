// Money in as it arrives (docs/decisions/1240), beside db/schema.ts, which re-exports it. A
// receipt is one transfer from a client; its cash lands on invoices as payments (payments.receipt_id)
// and what the client withheld lands on them as withholdings, each outstanding until the client's
// certificate for it is recorded. All three tables are append-only (triggers refuse UPDATE,
// DELETE and TRUNCATE): a receipt is taken back by reversal rows, never rewritten.
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
// db/schema.ts re-exports this module.
import { clients, invoices, users } from "./schema";

const money = (name: string) => numeric(name, { precision: 12, scale: 2 });

export const receipts = pgTable(
  "receipts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "restrict" }),
    receiptDate: date("receipt_date").notNull(),
    /** The cash received: what reached the bank. */
    amount: money("amount").notNull(),
    reference: text("reference"),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The Receipts list, newest first, and one client's (keyset pages, decision 0500).
    index("receipts_date_idx").on(t.receiptDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("receipts_client_date_idx").on(t.clientId, t.receiptDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("receipts_reference_prefix_idx").on(sql`lower(${t.reference}) text_pattern_ops`),
    check("receipts_amount_positive", sql`${t.amount} > 0`),
  ],
);

export const withholdings = pgTable(
  "withholdings",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    receiptId: integer("receipt_id")
      .notNull()
      .references(() => receipts.id, { onDelete: "restrict" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "restrict" }),
    /** The receipt's date; a reversal's is the day it was made. */
    withholdingDate: date("withholding_date").notNull(),
    /** Withholding tax, on the VAT-exclusive amount settled. */
    wht: money("wht").notNull(),
    /** VAT the client withheld (a client that withholds VAT). */
    vat: money("vat").notNull(),
    /** Set on a reversal: the withholding it takes back, for the opposite amounts. */
    reversesWithholdingId: integer("reverses_withholding_id").references((): AnyPgColumn => withholdings.id),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("withholdings_invoice_idx").on(t.invoiceId),
    index("withholdings_receipt_idx").on(t.receiptId),
    // The Withholding page: newest first, one client's (keyset pages).
    index("withholdings_date_idx").on(t.withholdingDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("withholdings_client_date_idx").on(
      t.clientId,
      t.withholdingDate.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    uniqueIndex("withholdings_reverses_idx").on(t.reversesWithholdingId),
    check(
      "withholdings_entry_kind",
      sql`(${t.reversesWithholdingId} is null and ${t.wht} >= 0 and ${t.vat} >= 0 and ${t.wht} + ${t.vat} > 0) or (${t.reversesWithholdingId} is not null and ${t.wht} <= 0 and ${t.vat} <= 0 and ${t.wht} + ${t.vat} < 0)`,
    ),
  ],
);

/** The client's credit note for a withholding (its WHT certificate): at most one each. */
export const withholdingCertificates = pgTable(
  "withholding_certificates",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    withholdingId: integer("withholding_id")
      .notNull()
      .references(() => withholdings.id, { onDelete: "restrict" }),
    certificateNo: text("certificate_no").notNull(),
    receivedOn: date("received_on").notNull(),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("withholding_certificates_withholding_idx").on(t.withholdingId),
    check("withholding_certificates_no_present", sql`length(btrim(${t.certificateNo})) > 0`),
  ],
);

/**
 * What clients withheld per month of the withholding's date (a receipt's date; a reversal's is the
 * day it was made, so it counts back in that month), for the tax report (docs/decisions/0990,
 * 1240). Kept by a trigger on withholdings in the receipt's own transaction, recounted by
 * `pks_rebuild_totals()` and `db:check`: the report reads 12 rows, never the withholdings.
 */
export const withholdingMonthTotals = pgTable(
  "withholding_month_totals",
  {
    // First day of the month.
    month: date("month").notNull(),
    /** Withholdings recorded (not counting reversals). */
    withholdingCount: integer("withholding_count").notNull().default(0),
    reversalCount: integer("reversal_count").notNull().default(0),
    /** WHT and VAT withheld, net of reversals. */
    wht: numeric("wht").notNull().default("0"),
    vat: numeric("vat").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.month] })],
);

export type Receipt = typeof receipts.$inferSelect;
export type Withholding = typeof withholdings.$inferSelect;
