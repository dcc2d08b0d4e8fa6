// The bank statement import (docs/decisions/1241), beside db/schema.ts, which re-exports it. A
// bank account keeps the column mapping of its bank's CSV; each statement read adds the lines it
// has not seen (a fingerprint unique per account); a credit line is matched to the receipt its
// confirmation records, at most once (a unique receipt id). Bank lines are not money rows: the
// receipt is, on the road of decision 0805.
import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
// db/schema.ts re-exports this module.
import { clients, users } from "./schema";
import { receipts } from "./schema-receipts";

/** How a bank's CSV reads: the header names of its columns and its date format (decision 1241). */
export type BankMapping = {
  dateColumn: string;
  dateFormat: string;
  narrationColumn: string;
  referenceColumn?: string;
  /** "signed": one amount column, credits positive; "split": credit and debit columns. */
  amountStyle: "signed" | "split";
  amountColumn?: string;
  creditColumn?: string;
  debitColumn?: string;
};

export const bankAccounts = pgTable(
  "bank_accounts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    accountNo: text("account_no"),
    /** The mapping last used to read this account's statements; null until the first import. */
    mapping: jsonb("mapping").$type<BankMapping>(),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("bank_accounts_name_lower_unique").on(sql`lower(${t.name})`),
    check("bank_accounts_name_present", sql`length(btrim(${t.name})) > 0`),
  ],
);

/** One file read: what it held and what was new. */
export const bankStatements = pgTable(
  "bank_statements",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    bankAccountId: integer("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "restrict" }),
    fileName: text("file_name").notNull(),
    linesRead: integer("lines_read").notNull(),
    linesAdded: integer("lines_added").notNull(),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("bank_statements_account_idx").on(t.bankAccountId, t.id)],
);

export const BANK_LINE_STATUSES = ["unmatched", "matched", "not_receipt"] as const;
export type BankLineStatus = (typeof BANK_LINE_STATUSES)[number];

export const bankLines = pgTable(
  "bank_lines",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    bankAccountId: integer("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "restrict" }),
    /** The statement that first brought the line. */
    statementId: integer("statement_id")
      .notNull()
      .references(() => bankStatements.id, { onDelete: "restrict" }),
    lineDate: date("line_date").notNull(),
    /** Signed: a credit (money in) is positive, a debit negative. */
    amount: numeric("amount", { precision: 14, scale: 2 }).notNull(),
    narration: text("narration").notNull(),
    reference: text("reference"),
    /** sha-256 of date, amount, reference, narration and the occurrence of identical lines in the file. */
    fingerprint: text("fingerprint").notNull(),
    status: text("status", { enum: BANK_LINE_STATUSES }).notNull().default("unmatched"),
    receiptId: integer("receipt_id").references(() => receipts.id, { onDelete: "restrict" }),
    decidedBy: uuid("decided_by").references(() => users.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("bank_lines_fingerprint_unique").on(t.bankAccountId, t.fingerprint),
    // A receipt is one bank line's at most: the database holds "matched at most once".
    uniqueIndex("bank_lines_receipt_unique").on(t.receiptId),
    // The Bank statement page: by status, newest first (keyset on date and id).
    index("bank_lines_status_date_idx").on(t.status, t.lineDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("bank_lines_date_idx").on(t.lineDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check("bank_lines_amount_nonzero", sql`${t.amount} <> 0`),
    check("bank_lines_status_check", sql`${t.status} in ('unmatched','matched','not_receipt')`),
    // Matched exactly when a receipt is named; a debit is never waiting for one.
    check("bank_lines_matched_has_receipt", sql`(${t.status} = 'matched') = (${t.receiptId} is not null)`),
    check("bank_lines_debit_not_waiting", sql`${t.amount} > 0 or ${t.status} = 'not_receipt'`),
  ],
);

/** A client's bank account numbers, learnt from the lines confirmed as its receipts. */
export const clientBankAccounts = pgTable(
  "client_bank_accounts",
  {
    accountNo: text("account_no").primaryKey(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("client_bank_accounts_client_idx").on(t.clientId)],
);

export type BankAccount = typeof bankAccounts.$inferSelect;
export type BankLine = typeof bankLines.$inferSelect;
