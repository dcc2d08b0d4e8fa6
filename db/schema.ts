import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { rateCards } from "./schema-rates";
// receipts name clients and invoices, and payments name receipts (docs/decisions/1240).
import { receipts } from "./schema-receipts";

// Money, tons and percentages are `numeric`: drizzle reads them as strings and we keep
// them as decimal strings end to end (see app/utils/money.ts).
const money = (name: string) => numeric(name, { precision: 12, scale: 2 });
const percent = (name: string) => numeric(name, { precision: 5, scale: 2 });
// Tons to the kilogram (docs/decisions/1220).
const tons = (name: string) => numeric(name, { precision: 11, scale: 3 });
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const ROLES = ["staff", "manager", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const USER_STATUSES = ["active", "frozen", "deleted"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const DELIVERY_STATUSES = ["draft", "confirmed", "invoiced"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
// "void": cancelled with a reason (docs/decisions/0920); its number stays taken.
// What an agent is paid on (docs/decisions/1220): the loaded, received or accepted tons.
export const PAY_BASES = ["loaded", "received", "accepted"] as const;
export type PayBasis = (typeof PAY_BASES)[number];
// Where a delivery's rate came from (docs/decisions/1230).
export const RATE_SOURCES = ["card", "default", "typed", "override"] as const;
export type RateSource = (typeof RATE_SOURCES)[number];
export const PAYMENT_STATUSES = ["pending", "partial", "paid", "overdue", "void"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Stored lower-cased; the unique index makes sign-in case-insensitive and exact.
    email: text("email").notNull(),
    password: text("password").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    role: text("role", { enum: ROLES }).notNull().default("staff"),
    status: text("status", { enum: USER_STATUSES }).notNull().default("active"),
    mustChangePassword: integer("must_change_password").notNull().default(0),
    totpSecret: text("totp_secret"),
    totpEnabled: boolean("totp_enabled").notNull().default(false),
    // The last accepted TOTP time step: a code from this step or earlier is a replay.
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    // Set with a temporary password (admin create or reset): it no longer signs in after this.
    temporaryPasswordExpiresAt: timestamp("temporary_password_expires_at", { withTimezone: true }),
    // When an admin issued the temporary password (shown in User Management), and when it signed
    // in: it signs in once (docs/decisions/0600). Null for the first admin's start-up password.
    temporaryPasswordIssuedAt: timestamp("temporary_password_issued_at", { withTimezone: true }),
    temporaryPasswordUsedAt: timestamp("temporary_password_used_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    check("users_role_check", sql`${t.role} in ('staff','manager','admin')`),
    check("users_status_check", sql`${t.status} in ('active','frozen','deleted')`),
    check("users_email_lower_check", sql`${t.email} = lower(${t.email})`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    sid: text("sid").primaryKey(),
    sess: jsonb("sess").notNull().$type<SessionData>().default({}),
    // Idle expiry, pushed forward while the session is used.
    expire: timestamp("expire", { withTimezone: true }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    // Absolute expiry is measured from here.
    createdAt: createdAt(),
  },
  (t) => [index("sessions_expire_idx").on(t.expire), index("sessions_user_idx").on(t.userId)],
);

export type SessionData = {
  // Set after a correct password when the account has two-factor on; not yet signed in.
  pendingTotpUserId?: string;
  pendingTotpAt?: number;
  // When the password was last confirmed for a factor change (ms since epoch).
  reauthAt?: number;
  // New two-factor recovery codes, sealed (AES-256-GCM), until the page that shows them once
  // reads them (docs/decisions/0401).
  recoveryCodesToShow?: string;
};

export const agents = pgTable(
  "agents",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    contact: text("contact"),
    // Optional; for settlements (docs/decisions/0980).
    phone: text("phone"),
    bankName: text("bank_name"),
    bankAccountName: text("bank_account_name"),
    bankAccountNo: text("bank_account_no"),
    // The tons its deliveries are paid on from now on; each delivery keeps the basis it was
    // recorded under (docs/decisions/1220).
    payBasis: text("pay_basis", { enum: PAY_BASES }).notNull().default("loaded"),
    // Where its statement link goes (docs/decisions/1260): +234 and ten digits.
    whatsappNumber: text("whatsapp_number"),
    email: text("email"),
    remindersOff: boolean("reminders_off").notNull().default(false),
    createdAt: createdAt(),
  },
  // Names are stored trimmed; one agent per name, whatever its case (two "Musa Ibrahim"s in the
  // New Delivery list cannot be told apart).
  (t) => [
    uniqueIndex("agents_name_lower_unique").on(sql`lower(${t.name})`),
    check("agents_pay_basis_check", sql`${t.payBasis} in ('loaded','received','accepted')`),
  ],
);

export const clients = pgTable(
  "clients",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    taxRate: percent("tax_rate").notNull().default("0"),
    paymentTermsDays: integer("payment_terms_days").notNull().default(30),
    // Optional; printed in the client block of an invoice (docs/decisions/0951).
    address: text("address"),
    email: text("email"),
    phone: text("phone"),
    taxNo: text("tax_no"),
    // Its deliveries are offered for invoicing only once their received ticket is recorded
    // (docs/decisions/1220).
    requiresReceivedTicket: boolean("requires_received_ticket").notNull().default(false),
    // Reminders (docs/decisions/1260): the WhatsApp number (+234 and ten digits) and the switch
    // that leaves the client out of every reminder.
    whatsappNumber: text("whatsapp_number"),
    remindersOff: boolean("reminders_off").notNull().default(false),
    // What the client withholds from what it pays (docs/decisions/1240): WHT percent of the
    // VAT-exclusive amount settled, and whether it withholds the VAT too.
    whtRate: percent("wht_rate").notNull().default("0"),
    withholdsVat: boolean("withholds_vat").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("clients_name_lower_unique").on(sql`lower(${t.name})`),
    check("clients_wht_rate_range", sql`${t.whtRate} >= 0 and ${t.whtRate} < 100`),
  ],
);

// A client's quality rules (docs/decisions/1210): each holds from its date until the client's
// next one. Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE): a rule is replaced by
// adding a newer one, so what applied on any day stays readable.
export const clientQualityRules = pgTable(
  "client_quality_rules",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "restrict" }),
    validFrom: date("valid_from").notNull(),
    // Moisture percent above which the client deducts weight.
    moistureThreshold: percent("moisture_threshold").notNull(),
    // Percent of the received weight deducted per percentage point of moisture above the threshold.
    deductionPerPoint: percent("deduction_per_point").notNull(),
    createdAt: createdAt(),
    createdBy: uuid("created_by").references(() => users.id),
  },
  (t) => [
    // One rule per client and day; newest first, it is also "the rule of client C on day D"
    // (`order by valid_from desc limit 1`).
    uniqueIndex("client_quality_rules_client_from_unique").on(t.clientId, t.validFrom.desc().nullsFirst()),
    check("client_quality_rules_threshold_range", sql`${t.moistureThreshold} >= 0 and ${t.moistureThreshold} <= 100`),
    check("client_quality_rules_deduction_range", sql`${t.deductionPerPoint} > 0 and ${t.deductionPerPoint} <= 100`),
    check("client_quality_rules_valid_from_min", sql`${t.validFrom} >= '2000-01-01'`),
  ],
);

export const invoices = pgTable(
  "invoices",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    invoiceNo: text("invoice_no").notNull(),
    // The first delivery of the invoice (spec's deliveryId); every covered delivery points back via
    // invoiceId. A plain column, as invoice_lines.delivery_id (decision 0921): a void invoice's
    // freed delivery may be deleted; while the invoice stands, the deliveries_keep_invoiced
    // trigger (migration 0022) keeps its deliveries.
    deliveryId: integer("delivery_id").notNull(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "restrict" }),
    amount: money("amount").notNull(),
    taxRate: percent("tax_rate").notNull(),
    profit: money("profit").notNull(),
    expectedPaymentDate: date("expected_payment_date").notNull(),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    amountPaid: money("amount_paid").notNull().default("0"),
    // The sum of its credit notes (docs/decisions/0920): balance = amount - paid - credited.
    amountCredited: money("amount_credited").notNull().default("0"),
    // What the client withheld (WHT and VAT) on receipts, less reversals (docs/decisions/1240):
    // balance = amount - paid - withheld - credited.
    amountWithheld: money("amount_withheld").notNull().default("0"),
    voidReason: text("void_reason"),
    voidedAt: timestamp("voided_at", { withTimezone: true }),
    voidedBy: uuid("voided_by").references(() => users.id),
    // The business date it was issued (APP_TIME_ZONE), as a credit note's: the day its document
    // carries and the month its tax is reported in (docs/decisions/0990).
    issueDate: date("issue_date").notNull(),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("invoices_invoice_no_unique").on(t.invoiceNo),
    // The tax report's invoices of a month, newest first (docs/decisions/0990).
    index("invoices_issue_date_idx").on(t.issueDate, t.id),
    index("invoices_status_idx").on(t.paymentStatus, t.expectedPaymentDate),
    index("invoices_created_idx").on(t.createdAt, t.id),
    // Keyset pages of the Invoices list, newest first, per filter (docs/decisions/0500).
    // (ids grow with creation: newest first is id descending).
    index("invoices_client_id_idx").on(t.clientId, t.id),
    // A client's statement (docs/decisions/0970): its invoices of a period by the day they were
    // issued (decision 0990). What it owes is kept in client_owed_totals (migration 0010).
    index("invoices_client_issue_idx").on(t.clientId, t.issueDate),
    index("invoices_status_id_idx").on(t.paymentStatus, t.id),
    // Owed: app/rules/invoices.server.ts owedSql, word for word, so the planner uses these.
    index("invoices_owed_id_idx")
      .on(t.id)
      .where(
        sql`(${t.amountPaid} + ${t.amountWithheld} + ${t.amountCredited} < ${t.amount} and ${t.paymentStatus} <> 'void')`,
      ),
    // Client credit: app/rules/invoices.server.ts clientCreditSql, word for word (the Invoices
    // list's "Client credit" filter; few rows, so a small index).
    index("invoices_credit_id_idx")
      .on(t.id)
      .where(
        sql`(${t.amountPaid} + ${t.amountWithheld} + ${t.amountCredited} > ${t.amount} and ${t.paymentStatus} <> 'void')`,
      ),
    // A client's invoices still owed, oldest due first (Apply Credit's choice of invoice).
    index("invoices_client_owed_due_idx")
      .on(t.clientId, t.expectedPaymentDate, t.id)
      .where(
        sql`(${t.amountPaid} + ${t.amountWithheld} + ${t.amountCredited} < ${t.amount} and ${t.paymentStatus} <> 'void')`,
      ),
    // The bank statement's match by amount (docs/decisions/1241): the oldest due of the invoices
    // still owed whose balance is a given figure, a few rows a figure however many share it.
    // app/presenters/bank-lines.server.ts owedBalanceSql, word for word.
    index("invoices_owed_balance_idx")
      .on(
        sql`(${t.amount} - (${t.amountPaid} + ${t.amountWithheld} + ${t.amountCredited}))`,
        t.expectedPaymentDate,
        t.id,
      )
      .where(
        sql`(${t.amountPaid} + ${t.amountWithheld} + ${t.amountCredited} < ${t.amount} and ${t.paymentStatus} <> 'void')`,
      ),
    // The Invoices list's due-date range (from/to): the range's own rows, then the page's order
    // (decision 0502; a range alone would walk every newer invoice).
    index("invoices_due_id_idx").on(t.expectedPaymentDate, t.id),
    // The dashboard's most urgent unpaid invoices.
    index("invoices_owed_due_idx")
      .on(t.expectedPaymentDate, t.id)
      .where(
        sql`(${t.amountPaid} + ${t.amountWithheld} + ${t.amountCredited} < ${t.amount} and ${t.paymentStatus} <> 'void')`,
      ),
    check("invoices_invoice_no_numeric", sql`${t.invoiceNo} ~ '^[0-9]{1,18}$'`),
    check("invoices_paid_within_amount", sql`${t.amountPaid} >= 0 and ${t.amountPaid} <= ${t.amount}`),
    // Credits never exceed the amount; a credit beyond what is unpaid is the client's credit balance.
    check("invoices_withheld_within_amount", sql`${t.amountWithheld} >= 0 and ${t.amountWithheld} <= ${t.amount}`),
    check("invoices_credited_within_amount", sql`${t.amountCredited} >= 0 and ${t.amountCredited} <= ${t.amount}`),
    check("invoices_status_check", sql`${t.paymentStatus} in ('pending','partial','paid','overdue','void')`),
    // Only an unsettled invoice is voided, always with its reason and time.
    check(
      "invoices_void_check",
      sql`(${t.paymentStatus} = 'void') = (${t.voidedAt} is not null) and (${t.paymentStatus} <> 'void' or (${t.voidReason} is not null and ${t.amountPaid} = 0 and ${t.amountWithheld} = 0 and ${t.amountCredited} = 0))`,
    ),
  ],
);

export const deliveries = pgTable(
  "deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    date: date("date").notNull(),
    agentId: integer("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "restrict" }),
    clientId: integer("client_id").references(() => clients.id, { onDelete: "restrict" }),
    // The loaded tons: the loading ticket's net kilograms / 1000 when it has one, else the tons
    // typed at the yard (docs/decisions/1220). Three decimals: a kilogram is 0.001 t.
    tons: tons("tons").notNull(),
    truckNo: text("truck_no"),
    location: text("location").notNull(),
    // The received ticket's moisture reading (docs/decisions/1220).
    moisture: percent("moisture"),
    // The client's weighbridge net (received ticket), the quality rule that applied to its
    // moisture and the tons it deducted: snapshotted when the received ticket is recorded, as
    // rates are, so a later rule never rewrites them (docs/decisions/1220).
    receivedTons: tons("received_tons"),
    qualityRuleId: integer("quality_rule_id").references(() => clientQualityRules.id, { onDelete: "restrict" }),
    qualityDeductionTons: tons("quality_deduction_tons"),
    // How the agent was paid when the delivery was recorded: the agent's pay basis of that moment.
    payBasis: text("pay_basis", { enum: PAY_BASES }).notNull().default("loaded"),
    // Computed by the database from the columns above, never written (docs/decisions/1220):
    // accepted = received - deduction; the client is invoiced on accepted tons when there is a
    // received ticket, else on the loaded tons; the agent is paid on its basis's weight, falling
    // back to the loaded tons while that weight is not known yet.
    acceptedTons: tons("accepted_tons").generatedAlwaysAs(sql`received_tons - coalesce(quality_deduction_tons, 0)`),
    invoicedTons: tons("invoiced_tons")
      .notNull()
      .generatedAlwaysAs(sql`coalesce(received_tons - coalesce(quality_deduction_tons, 0), tons)`),
    paidTons: tons("paid_tons")
      .notNull()
      .generatedAlwaysAs(
        sql`case pay_basis when 'received' then coalesce(received_tons, tons) when 'accepted' then coalesce(received_tons - coalesce(quality_deduction_tons, 0), tons) else tons end`,
      ),
    remarks: text("remarks"),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("draft"),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    buyingRate: money("buying_rate"),
    sellingRate: money("selling_rate"),
    logisticsCost: money("logistics_cost"),
    otherCosts: money("other_costs"),
    otherCostsDescription: text("other_costs_description"),
    mobilizationPayment: money("mobilization_payment"),
    offloadingCost: money("offloading_cost"),
    // Where each rate came from (docs/decisions/1230): the rate card a new delivery copied its
    // rate from, and the source of the rate ("card", "default" from System Settings, "typed"
    // (haulage typed as the logistics cost), "override" by a manager's edit); null on deliveries
    // recorded before rate cards. Later cards never change them.
    buyingRateCardId: integer("buying_rate_card_id").references((): AnyPgColumn => rateCards.id, {
      onDelete: "restrict",
    }),
    sellingRateCardId: integer("selling_rate_card_id").references((): AnyPgColumn => rateCards.id, {
      onDelete: "restrict",
    }),
    offloadingCostCardId: integer("offloading_cost_card_id").references((): AnyPgColumn => rateCards.id, {
      onDelete: "restrict",
    }),
    haulageCardId: integer("haulage_card_id").references((): AnyPgColumn => rateCards.id, { onDelete: "restrict" }),
    buyingRateSource: text("buying_rate_source", { enum: RATE_SOURCES }),
    sellingRateSource: text("selling_rate_source", { enum: RATE_SOURCES }),
    offloadingCostSource: text("offloading_cost_source", { enum: RATE_SOURCES }),
    logisticsCostSource: text("logistics_cost_source", { enum: RATE_SOURCES }),
    invoiceId: integer("invoice_id").references(() => invoices.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Keyset pagination: newest first, id breaks ties.
    index("deliveries_date_idx").on(t.date.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("deliveries_creator_date_idx").on(t.createdBy, t.date.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("deliveries_status_idx").on(t.status, t.date),
    // An agent's deliveries in date order: the agent statement's lines and opening balance, and
    // the latest activity of the owed list (docs/decisions/0980).
    index("deliveries_agent_date_idx").on(t.agentId, t.date, t.id),
    index("deliveries_client_idx").on(t.clientId),
    // The profit report's drill-down (docs/decisions/1270): a client's or a pick-up site's
    // deliveries in the list's order, newest first.
    index("deliveries_client_date_idx").on(t.clientId, t.date.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("deliveries_location_date_idx").on(t.location, t.date.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("deliveries_invoice_idx").on(t.invoiceId),
    // Generate Invoice's picker: confirmed, uninvoiced deliveries newest first (docs/decisions/0502).
    index("deliveries_invoiceable_idx")
      .on(t.date.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'confirmed' and ${t.invoiceId} is null`),
    // Whether a card was used (a used card cannot be deleted): one probe per kind.
    index("deliveries_buying_card_idx")
      .on(t.buyingRateCardId)
      .where(sql`${t.buyingRateCardId} is not null`),
    index("deliveries_selling_card_idx")
      .on(t.sellingRateCardId)
      .where(sql`${t.sellingRateCardId} is not null`),
    index("deliveries_offloading_card_idx")
      .on(t.offloadingCostCardId)
      .where(sql`${t.offloadingCostCardId} is not null`),
    index("deliveries_haulage_card_idx")
      .on(t.haulageCardId)
      .where(sql`${t.haulageCardId} is not null`),
    check(
      "deliveries_rate_sources",
      sql`coalesce(${t.buyingRateSource}, 'card') in ('card','default','override') and coalesce(${t.sellingRateSource}, 'card') in ('card','default','override') and coalesce(${t.offloadingCostSource}, 'card') in ('card','default','override') and coalesce(${t.logisticsCostSource}, 'card') in ('card','typed','override')`,
    ),
    check("deliveries_status_check", sql`${t.status} in ('draft','confirmed','invoiced')`),
    check("deliveries_tons_positive", sql`${t.tons} > 0`),
    check("deliveries_pay_basis_check", sql`${t.payBasis} in ('loaded','received','accepted')`),
    // A deduction only with a received weight, never more than it.
    check(
      "deliveries_received_weights",
      sql`${t.receivedTons} > 0 or (${t.receivedTons} is null and ${t.qualityDeductionTons} is null and ${t.qualityRuleId} is null)`,
    ),
    check(
      "deliveries_deduction_range",
      sql`${t.qualityDeductionTons} is null or (${t.qualityDeductionTons} >= 0 and ${t.qualityDeductionTons} <= ${t.receivedTons})`,
    ),
  ],
);

// What an invoice covered, copied when it was made (docs/decisions/0921): a void invoice frees
// its deliveries (deliveries.invoice_id back to null) and keeps this record of them. The
// delivery id is a plain column, not a foreign key: a freed delivery may later be deleted.
export const invoiceLines = pgTable(
  "invoice_lines",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    deliveryId: integer("delivery_id").notNull(),
    date: date("date").notNull(),
    agentName: text("agent_name"),
    truckNo: text("truck_no"),
    location: text("location").notNull(),
    // The tons invoiced: the delivery's accepted tons when it had a received ticket, else its
    // loaded tons (docs/decisions/1220).
    tons: tons("tons").notNull(),
    sellingRate: money("selling_rate"),
    // tons x selling rate, exact (5 decimals); the invoice amount is their sum rounded once.
    amount: numeric("amount", { precision: 17, scale: 5 }).notNull(),
    // The weights behind `tons` when the delivery had a received ticket: what the client's
    // weighbridge said, its moisture reading and the tons its quality rule deducted.
    receivedTons: tons("received_tons"),
    moisture: percent("moisture"),
    qualityDeductionTons: tons("quality_deduction_tons"),
  },
  (t) => [
    // The invoice page's keyset pages of its deliveries, newest first.
    index("invoice_lines_invoice_idx").on(t.invoiceId, t.date, t.deliveryId),
    uniqueIndex("invoice_lines_invoice_delivery_unique").on(t.invoiceId, t.deliveryId),
  ],
);

// Credit notes (docs/decisions/0920): own gapless series CN-1, CN-2, ... from credit_note_counter.
// Append-only (migration 0014): a credit note issued in error is taken back by a reversal row,
// negative, without a number of its own, naming the credit note (at most one each); `reason`
// keeps why.
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    creditNoteNo: text("credit_note_no"),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    amount: money("amount").notNull(),
    reason: text("reason").notNull(),
    // The business date it was issued (APP_TIME_ZONE).
    issueDate: date("issue_date").notNull(),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: createdAt(),
    reversesCreditNoteId: integer("reverses_credit_note_id").references((): AnyPgColumn => creditNotes.id),
  },
  (t) => [
    uniqueIndex("credit_notes_no_unique").on(t.creditNoteNo),
    uniqueIndex("credit_notes_reverses_idx").on(t.reversesCreditNoteId),
    index("credit_notes_invoice_idx").on(t.invoiceId, t.id),
    // Statements: the credit notes of a period, and those after a date; the tax report's credit
    // notes of a month, newest first (docs/decisions/0990).
    index("credit_notes_issue_date_idx").on(t.issueDate, t.id),
    check("credit_notes_no_format", sql`${t.creditNoteNo} ~ '^CN-[1-9][0-9]{0,17}$'`),
    // A credit note: numbered and positive; a reversal: no number and negative.
    check(
      "credit_notes_entry_kind",
      sql`(${t.reversesCreditNoteId} is null and ${t.creditNoteNo} is not null and ${t.amount} > 0) or (${t.reversesCreditNoteId} is not null and ${t.creditNoteNo} is null and ${t.amount} < 0)`,
    ),
    check("credit_notes_reason_present", sql`length(btrim(${t.reason})) > 0`),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    amount: money("amount").notNull(),
    paymentDate: date("payment_date").notNull(),
    reference: text("reference"),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: createdAt(),
    // Set on a reversal: the payment it takes back, by a row of the opposite amount dated the
    // day it was made (a payment is never rewritten: triggers in migration 0013 refuse UPDATE,
    // DELETE and TRUNCATE; docs/decisions/0920). At most one each; `note` keeps the reason.
    reversesPaymentId: integer("reverses_payment_id").references((): AnyPgColumn => payments.id),
    note: text("note"),
    // A refund (migration 0015): money paid back to the client out of the credit an invoice
    // carries (paid and credited past its amount), a negative row with its reason in `note`.
    refund: boolean("refund").notNull().default(false),
    // A client credit moved to another invoice of the same client (migration 0017): a negative
    // row on the invoice that carried the credit naming the invoice it went to, and a positive
    // row there naming this one (`creditFromPaymentId`, at most one each). No money moves.
    creditMovedToInvoiceId: integer("credit_moved_to_invoice_id").references((): AnyPgColumn => invoices.id),
    creditFromPaymentId: integer("credit_from_payment_id").references((): AnyPgColumn => payments.id),
    // The receipt this cash came in with (docs/decisions/1240); null on entries older than
    // receipts, refunds and credit moves. A reversal names its payment's receipt too.
    receiptId: integer("receipt_id").references((): AnyPgColumn => receipts.id),
  },
  (t) => [
    index("payments_invoice_idx").on(t.invoiceId),
    index("payments_receipt_idx").on(t.receiptId),
    index("payments_date_idx").on(t.paymentDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The Payments list's reference search, a case-insensitive prefix (decision 0502):
    // `lower(reference) like 'trf-1%'` reads only the payments it matches.
    index("payments_reference_prefix_idx").on(sql`lower(${t.reference}) text_pattern_ops`),
    uniqueIndex("payments_reverses_idx").on(t.reversesPaymentId),
    uniqueIndex("payments_credit_from_idx").on(t.creditFromPaymentId),
    // A payment (or a credit moved in) is positive; a refund is negative and says why; a credit
    // moved out is negative and names where it went; a reversal names the entry it takes back,
    // for the opposite amount (checked by a trigger, migration 0013).
    check(
      "payments_entry_kind",
      sql`(${t.reversesPaymentId} is null and not ${t.refund} and ${t.creditMovedToInvoiceId} is null and ${t.amount} > 0) or (${t.reversesPaymentId} is null and ${t.refund} and ${t.creditMovedToInvoiceId} is null and ${t.creditFromPaymentId} is null and ${t.amount} < 0 and ${t.note} is not null) or (${t.reversesPaymentId} is null and not ${t.refund} and ${t.creditMovedToInvoiceId} is not null and ${t.creditMovedToInvoiceId} <> ${t.invoiceId} and ${t.creditFromPaymentId} is null and ${t.amount} < 0) or (${t.reversesPaymentId} is not null and not ${t.refund} and ${t.creditMovedToInvoiceId} is null and ${t.creditFromPaymentId} is null and ${t.amount} <> 0)`,
    ),
  ],
);

// Agent payouts (docs/decisions/0980): money paid to an agent against what their
// deliveries earned (net payable). Append-only: triggers in the migration refuse UPDATE, DELETE
// and TRUNCATE; a payout is never rewritten.
export const PAYOUT_METHODS = ["cash", "bank_transfer", "cheque", "other"] as const;
// A settlement pays what the agent's deliveries earned; an advance is paid before them and later
// deliveries recover it (docs/decisions/1250).
export const PAYOUT_KINDS = ["settlement", "advance"] as const;
// A payout above the approval limit waits for a second admin (docs/decisions/1250).
export const PAYOUT_STATUSES = ["approved", "pending", "rejected"] as const;

export const agentPayouts = pgTable(
  "agent_payouts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    agentId: integer("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "restrict" }),
    amount: money("amount").notNull(),
    // The business date it was paid (APP_TIME_ZONE).
    payoutDate: date("payout_date").notNull(),
    method: text("method", { enum: PAYOUT_METHODS }).notNull(),
    reference: text("reference"),
    note: text("note"),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: createdAt(),
    // Set on a reversal: the payout it takes back, by a row of the opposite amount dated the day
    // it was made (a payout is never rewritten, docs/decisions/0980). At most one each.
    reversesPayoutId: integer("reverses_payout_id").references((): AnyPgColumn => agentPayouts.id),
    kind: text("kind", { enum: PAYOUT_KINDS }).notNull().default("settlement"),
    // Only approved payouts count as paid. A pending one is decided once, by an admin other than
    // its maker (the check below); the decision is the one change the table allows.
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("approved"),
    decidedBy: uuid("decided_by").references(() => users.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decisionReason: text("decision_reason"),
  },
  (t) => [
    // The pending approvals list and its badge (one indexed count).
    index("agent_payouts_pending_idx")
      .on(t.id)
      .where(sql`${t.status} = 'pending'`),
    check("agent_payouts_kind_check", sql`${t.kind} in ('settlement','advance')`),
    check("agent_payouts_status_check", sql`${t.status} in ('approved','pending','rejected')`),
    // The database, not only the app, refuses an approver who is the payout's maker.
    check(
      "agent_payouts_decider_not_maker",
      sql`${t.decidedBy} is null or ${t.createdBy} is null or ${t.decidedBy} <> ${t.createdBy}`,
    ),
    check(
      "agent_payouts_pending_undecided",
      sql`${t.status} <> 'pending' or (${t.createdBy} is not null and ${t.decidedBy} is null and ${t.decidedAt} is null)`,
    ),
    check(
      "agent_payouts_rejected_decided",
      sql`${t.status} <> 'rejected' or (${t.decidedBy} is not null and ${t.decisionReason} is not null)`,
    ),
    // An agent's payouts in date order (statement, opening balance) and newest first (API list).
    index("agent_payouts_agent_date_idx").on(t.agentId, t.payoutDate, t.id),
    uniqueIndex("agent_payouts_reverses_idx").on(t.reversesPayoutId),
    // A payout is positive; a reversal is negative and names its payout.
    check(
      "agent_payouts_amount_sign",
      sql`(${t.reversesPayoutId} is null and ${t.amount} > 0) or (${t.reversesPayoutId} is not null and ${t.amount} < 0)`,
    ),
    check("agent_payouts_method_check", sql`${t.method} in ('cash','bank_transfer','cheque','other')`),
  ],
);

// What each agent has earned (net payable of counted deliveries, exact) and been paid, kept by
// triggers in the same transaction as every delivery and payout write (docs/decisions/0980), so
// the owed list reads one row per agent. last_activity: the latest counted delivery or payout
// date, or the day the agent was added; it orders the list newest first.
export const agentBalances = pgTable(
  "agent_balances",
  {
    agentId: integer("agent_id")
      .primaryKey()
      .references(() => agents.id, { onDelete: "cascade" }),
    earned: numeric("earned").notNull().default("0"),
    paid: numeric("paid").notNull().default("0"),
    nDeliveries: integer("n_deliveries").notNull().default(0),
    nPayouts: integer("n_payouts").notNull().default(0),
    lastActivity: date("last_activity").notNull(),
  },
  (t) => [index("agent_balances_activity_idx").on(t.lastActivity, t.agentId)],
);

export const settings = pgTable("settings", {
  id: integer("id").primaryKey().default(1),
  buyingRate: money("buying_rate").notNull().default("0"),
  sellingRate: money("selling_rate").notNull().default("0"),
  taxRate: percent("tax_rate").notNull().default("0"),
  offloadingCost: money("offloading_cost").notNull().default("0"),
  // Null until an admin sets it: then DELIVERY_CLIENT_NAME applies.
  deliveryClientName: text("delivery_client_name"),
  // A payout above this waits for a second admin; null: none does (docs/decisions/1250).
  payoutApprovalLimit: money("payout_approval_limit"),
  // Reminder levels, days relative to the due date (docs/decisions/1260).
  reminderLevels: integer("reminder_levels")
    .array()
    .notNull()
    .default(sql`'{-3,0,7,14,30}'::integer[]`),
  updatedAt: updatedAt(),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
});

// Binary data; handed to the drivers as a Buffer (postgres.js sends a Buffer as bytea).
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

// The company on its invoices (docs/decisions/0953): one row. The logo is a small
// PNG or JPEG kept here (backed up and restored with everything else); its bytes are read
// only by the logo route, never with the details.
export const businessDetails = pgTable(
  "business_details",
  {
    id: integer("id").primaryKey().default(1),
    companyName: text("company_name"),
    address: text("address"),
    phone: text("phone"),
    email: text("email"),
    registrationNo: text("registration_no"),
    taxNo: text("tax_no"),
    bankName: text("bank_name"),
    bankAccountName: text("bank_account_name"),
    bankAccountNo: text("bank_account_no"),
    logo: bytea("logo"),
    logoType: text("logo_type"),
    logoUpdatedAt: timestamp("logo_updated_at", { withTimezone: true }),
    updatedAt: updatedAt(),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    check("business_details_single_row", sql`${t.id} = 1`),
    check("business_details_logo_type", sql`${t.logoType} in ('image/png','image/jpeg')`),
    check("business_details_logo_size", sql`octet_length(${t.logo}) <= 204800`),
    check("business_details_logo_complete", sql`(${t.logo} is null) = (${t.logoType} is null)`),
  ],
);

export const passkeys = pgTable(
  "passkeys",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialId: text("credential_id").notNull(),
    credentialPublicKey: text("credential_public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports"),
    deviceName: text("device_name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("passkeys_credential_unique").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose", { enum: ["register", "authenticate"] }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    // sha256 of the browser-bound nonce cookie of the client that asked for it (sign-in options).
    binding: text("binding"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("webauthn_challenge_unique").on(t.challenge), index("webauthn_expires_idx").on(t.expiresAt)],
);

// One row per (user, key): the first result of a create is stored and replayed for repeats.
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    scope: text("scope").notNull(),
    requestHash: text("request_hash").notNull(),
    resourceId: text("resource_id"),
    response: jsonb("response"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_created_idx").on(t.createdAt)],
);

// Failed sign-in attempts, kept in the database so the limit holds across instances.
export const authAttempts = pgTable(
  "auth_attempts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    identifier: text("identifier").notNull(),
    kind: text("kind", { enum: ["password", "totp"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("auth_attempts_identifier_idx").on(t.identifier, t.createdAt)],
);

// Two-factor recovery codes (docs/decisions/0401): ten per user, shown once, kept as SHA-256 hashes
// of the user id and the code, each accepted once instead of an authenticator code.
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash_unique").on(t.userId, t.codeHash)],
);

// Sign-in throttle counters, one row per key ("acct:<email>|ip:<address>", "acct:<email>",
// "ipm:<address>", "ip:<address>", "passkey-options:<address>", "passkey-failure:<address>";
// docs/decisions/0600). Incremented with upserts before the password is checked, so racing
// requests cannot slip past the limit; refused attempts are counted here, not in the audit trail.
export const authThrottle = pgTable(
  "auth_throttle",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull().default(0),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("auth_throttle_window_idx").on(t.windowStart)],
);

// Scale (docs/decisions/0500): totals kept up to date by triggers in the same transaction as
// each write, so dashboards, summary cards and reconciliation read a few rows, never the tables.

// The last invoice number handed out; its row lock orders concurrent invoices.
export const invoiceCounter = pgTable(
  "invoice_counter",
  {
    id: integer("id").primaryKey().default(1),
    lastNo: bigint("last_no", { mode: "number" }).notNull(),
  },
  (t) => [check("invoice_counter_single_row", sql`${t.id} = 1`)],
);

// The last credit note number handed out (CN-n), locked by the creating transaction like the invoice counter.
export const creditNoteCounter = pgTable(
  "credit_note_counter",
  {
    id: integer("id").primaryKey().default(1),
    lastNo: bigint("last_no", { mode: "number" }).notNull(),
  },
  (t) => [check("credit_note_counter_single_row", sql`${t.id} = 1`)],
);

const totalsColumns = () => ({
  nAll: integer("n_all").notNull().default(0),
  nConfirmed: integer("n_confirmed").notNull().default(0),
  nInvoiced: integer("n_invoiced").notNull().default(0),
  // Confirmed, with a client and no invoice: what Generate Invoice can still take.
  nEligible: integer("n_eligible").notNull().default(0),
  // Confirmed and invoiced deliveries only.
  tons: numeric("tons").notNull().default("0"),
  revenue: numeric("revenue").notNull().default("0"),
  // Of counted deliveries that have a selling rate; exact, rounded only when shown.
  profit: numeric("profit").notNull().default("0"),
});

export const deliveryDayTotals = pgTable("delivery_day_totals", {
  day: date("day").primaryKey(),
  ...totalsColumns(),
});

export const deliveryMonthTotals = pgTable(
  "delivery_month_totals",
  {
    // First day of the month.
    month: date("month").primaryKey(),
    ...totalsColumns(),
    // Invoices whose first delivery is in this month (an invoice never spans months).
    invoiceCount: integer("invoice_count").notNull().default(0),
    firstInvoiceNo: bigint("first_invoice_no", { mode: "number" }),
    lastInvoiceNo: bigint("last_invoice_no", { mode: "number" }),
  },
  (t) => [
    index("delivery_month_totals_eligible_idx")
      .on(t.month)
      .where(sql`${t.nEligible} > 0`),
  ],
);

export const invoiceStatusTotals = pgTable(
  "invoice_status_totals",
  {
    paymentStatus: text("payment_status").notNull(),
    dueDate: date("due_date").notNull(),
    owed: boolean("owed").notNull(),
    n: integer("n").notNull().default(0),
    amount: numeric("amount").notNull().default("0"),
    amountPaid: numeric("amount_paid").notNull().default("0"),
    amountCredited: numeric("amount_credited").notNull().default("0"),
    amountWithheld: numeric("amount_withheld").notNull().default("0"),
  },
  // Void invoices are left out (they count in no total). The owed rows by due date answer
  // "how much is not yet due" from today on, without the rows of past due dates.
  (t) => [
    primaryKey({ columns: [t.paymentStatus, t.dueDate, t.owed] }),
    index("invoice_status_totals_owed_due_idx")
      .on(t.dueDate)
      .where(sql`${t.owed}`),
  ],
);

/**
 * The monthly tax report (docs/decisions/0990): per month of issue and tax rate, the invoices
 * that are not void and the credit notes (their reversals counted back), each with the tax its
 * amount contains. Kept by triggers in the writes' transactions (migration 0019).
 */
export const taxMonthTotals = pgTable(
  "tax_month_totals",
  {
    // First day of the month.
    month: date("month").notNull(),
    taxRate: percent("tax_rate").notNull(),
    invoiceCount: integer("invoice_count").notNull().default(0),
    invoiced: numeric("invoiced").notNull().default("0"),
    invoiceTax: numeric("invoice_tax").notNull().default("0"),
    // Invoices of the month that were voided: their numbers are in the series, their money is not.
    voidCount: integer("void_count").notNull().default(0),
    creditNoteCount: integer("credit_note_count").notNull().default(0),
    reversalCount: integer("reversal_count").notNull().default(0),
    // Credit notes less their reversals, by the month each was dated.
    credited: numeric("credited").notNull().default("0"),
    creditTax: numeric("credit_tax").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.month, t.taxRate] })],
);

/**
 * The same totals without the due date (migration 0011): one row per status and owed flag, so
 * the summary cards cost the same at any size. Overdue is what is owed less what is owed from
 * today on (the rows above with a due date from today), so the past due dates are never read.
 * Kept by the same trigger, in the same transaction, after the due-date row of each status.
 */
export const invoiceStatusRollup = pgTable(
  "invoice_status_rollup",
  {
    paymentStatus: text("payment_status").notNull(),
    owed: boolean("owed").notNull(),
    n: integer("n").notNull().default(0),
    amount: numeric("amount").notNull().default("0"),
    amountPaid: numeric("amount_paid").notNull().default("0"),
    amountCredited: numeric("amount_credited").notNull().default("0"),
    amountWithheld: numeric("amount_withheld").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.paymentStatus, t.owed] })],
);

/**
 * What each client owes now, per due date (docs/decisions/0970, "Kept totals"): each invoice's
 * balance (amount less paid and credited; void invoices none), owed and credit apart, kept by a
 * trigger on invoices in the same transaction (migration 0010). A client's balance and a
 * statement's ageing read these rows, one a due date, instead of the client's open invoices.
 */
export const clientOwedTotals = pgTable(
  "client_owed_totals",
  {
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    dueDate: date("due_date").notNull(),
    /** The sum of the invoices' balances that are owed (above zero). */
    owed: numeric("owed").notNull().default("0"),
    /** The sum of the balances credited beyond what was left to pay (below zero): the client's credit. */
    credit: numeric("credit").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.dueDate] })],
);

/**
 * The same per client, all due dates together (migration 0025, docs/decisions/0995): kept by the
 * same function in the same transaction, so the Receivables page reads one row per client and,
 * for the ageing, only the due dates of the last 90 days and later; what is older is the rest.
 */
export const clientBalances = pgTable("client_balances", {
  clientId: integer("client_id")
    .primaryKey()
    .references(() => clients.id, { onDelete: "cascade" }),
  owed: numeric("owed").notNull().default("0"),
  credit: numeric("credit").notNull().default("0"),
});

export const paymentDayTotals = pgTable(
  "payment_day_totals",
  {
    paymentDate: date("payment_date").notNull(),
    clientId: integer("client_id").notNull(),
    n: integer("n").notNull().default(0),
    amount: numeric("amount").notNull().default("0"),
    // Payments received that stand (money in, not reversed), on the day each was received; n
    // counts every row, reversals, refunds and credit moves included (decision 0300).
    received: integer("received").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.paymentDate, t.clientId] }),
    // One client's days (a statement's totals and its page's reach, decision 0970).
    index("payment_day_totals_client_day_idx").on(t.clientId, t.paymentDate),
  ],
);

// The audit trail (docs/decisions/0900): one row per recorded change, written by
// app/models/audit.server.ts in the same transaction as the change. Append-only: triggers in
// the migration refuse UPDATE, DELETE and TRUNCATE. No foreign keys: an event outlives the
// row it describes (a deleted delivery) and names its actor by id and e-mail as they were.
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    time: timestamp("time", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    requestId: text("request_id"),
    clientAddress: text("client_address"),
  },
  (t) => [
    // Newest first is id descending (the primary key); one index per filter, id last, so a
    // filtered page is read in order from where the last one ended (decision 0502).
    index("audit_events_entity_idx").on(t.entityType, t.entityId, t.id),
    // An entity id without its type, and an actor given by e-mail.
    index("audit_events_entity_id_idx").on(t.entityId, t.id),
    index("audit_events_actor_idx").on(t.actorId, t.id),
    index("audit_events_actor_email_idx").on(t.actorEmail, t.id),
    index("audit_events_action_idx").on(t.action, t.id),
    // A date range: two probes turn it into an id range (app/models/audit.server.ts idBoundsOf).
    index("audit_events_time_idx").on(t.time),
  ],
);

// Text compared byte by byte (COLLATE "C"): a plate key is A-Z and 0-9 only, and in this order
// its index answers both the list's order and a prefix search (`like 'KJA%'`), whatever the
// database's own collation.
const byteText = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

// The truck register (docs/decisions/1200): one row per plate, however it is typed. `plate` is
// shown ("LAG 123-XY"), `plate_key` is what makes two plates one ("LAG123XY"). A weighbridge
// ticket will name its truck by id.
export const trucks = pgTable(
  "trucks",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    plate: text("plate").notNull(),
    plateKey: byteText("plate_key").notNull(),
    transporter: text("transporter"),
    phone: text("phone"),
    usualTareKg: integer("usual_tare_kg"),
    createdAt: createdAt(),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Unique, the list's order and its search by the start of a plate.
    uniqueIndex("trucks_plate_key_unique").on(t.plateKey),
    // New Delivery's suggestions: the plates most recently added or changed.
    index("trucks_updated_idx").on(t.updatedAt.desc(), t.id.desc()),
    check("trucks_plate_key_shape", sql`${t.plateKey} ~ '^[A-Z0-9]{1,20}$'`),
    check("trucks_usual_tare_range", sql`${t.usualTareKg} between 1 and 200000`),
  ],
);

// Month close (docs/decisions/0901): one row, the last calendar day of the last closed
// month. Cumulative: everything dated on or before it is closed. Writes read it FOR SHARE
// inside their transaction; closing and reopening update it.
export const periodClose = pgTable(
  "period_close",
  {
    id: integer("id").primaryKey().default(1),
    closedThrough: date("closed_through"),
    updatedAt: updatedAt(),
    updatedBy: uuid("updated_by"),
  },
  (t) => [check("period_close_single_row", sql`${t.id} = 1`)],
);

export type User = typeof users.$inferSelect;
export type Agent = typeof agents.$inferSelect;
export type Truck = typeof trucks.$inferSelect;
export type Client = typeof clients.$inferSelect;
export type ClientQualityRule = typeof clientQualityRules.$inferSelect;
export type Delivery = typeof deliveries.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
export type Payment = typeof payments.$inferSelect;
export type CreditNote = typeof creditNotes.$inferSelect;
export type InvoiceLine = typeof invoiceLines.$inferSelect;
export type AgentPayout = typeof agentPayouts.$inferSelect;
export type Settings = typeof settings.$inferSelect;
export type Passkey = typeof passkeys.$inferSelect;
export type AuditEventRow = typeof auditEvents.$inferSelect;
export type BusinessDetails = typeof businessDetails.$inferSelect;

export * from "./schema-weighbridge";
export * from "./schema-rates";
export * from "./schema-sharing";
export * from "./schema-reports";
export * from "./schema-receipts";
export * from "./schema-bank";
