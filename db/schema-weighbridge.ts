// Weighbridge tickets and their photos (docs/decisions/1220), beside db/schema.ts, which
// re-exports them. A ticket is what the weighbridge printed: its number, the truck, gross and tare
// in whole kilograms; the net is computed by the database, never typed.
import { sql } from "drizzle-orm";
import {
  check,
  customType,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { deliveries, trucks, users } from "./schema";

// Binary data; handed to the drivers as a Buffer or Uint8Array (both send it as bytea).
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/** The largest photo kept, after the phone has made it smaller: 2 MB. */
export const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;
export const ATTACHMENT_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

// Files kept in the database, so backup and restore carry them (DESIGN.md, "Weights and
// quality"). Written once, never changed; a replaced ticket's photo stays for the audit trail.
export const attachments = pgTable(
  "attachments",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    contentType: text("content_type", { enum: ATTACHMENT_TYPES }).notNull(),
    bytes: bytes("bytes").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
  },
  (t) => [
    check("attachments_type_check", sql`${t.contentType} in ('image/jpeg','image/png','image/webp')`),
    check(
      "attachments_size_check",
      sql`${t.sizeBytes} = octet_length(${t.bytes}) and ${t.sizeBytes} between 1 and 2097152`,
    ),
  ],
);

export const TICKET_KINDS = ["loading", "received"] as const;
export type TicketKind = (typeof TICKET_KINDS)[number];

// A delivery's weighbridge tickets: at most one of each kind. Recording a second ticket of a kind
// replaces the first (the audit trail keeps it) until the delivery is invoiced. `weighbridge`
// names whose weighbridge printed it ("client:12" for a received ticket, "site:<pick-up site>"
// for a loading ticket), and one ticket number is used once per weighbridge.
export const deliveryTickets = pgTable(
  "delivery_tickets",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: TICKET_KINDS }).notNull(),
    ticketNo: text("ticket_no").notNull(),
    weighbridge: text("weighbridge").notNull(),
    truckId: integer("truck_id")
      .notNull()
      .references(() => trucks.id, { onDelete: "restrict" }),
    grossKg: integer("gross_kg").notNull(),
    tareKg: integer("tare_kg").notNull(),
    netKg: integer("net_kg")
      .notNull()
      .generatedAlwaysAs(sql`gross_kg - tare_kg`),
    weighedAt: timestamp("weighed_at", { withTimezone: true }),
    // The received ticket's moisture reading, percent.
    moisture: numeric("moisture", { precision: 5, scale: 2 }),
    photoId: integer("photo_id").references(() => attachments.id, { onDelete: "restrict" }),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("delivery_tickets_delivery_kind_unique").on(t.deliveryId, t.kind),
    // Stored upper-cased and trimmed (the model does it), so "t-0042" and "T-0042" are one number.
    uniqueIndex("delivery_tickets_number_unique").on(t.weighbridge, t.ticketNo),
    index("delivery_tickets_truck_idx").on(t.truckId),
    index("delivery_tickets_photo_idx").on(t.photoId),
    check("delivery_tickets_kind_check", sql`${t.kind} in ('loading','received')`),
    check("delivery_tickets_weights", sql`${t.tareKg} >= 0 and ${t.grossKg} > ${t.tareKg} and ${t.grossKg} <= 200000`),
    check(
      "delivery_tickets_moisture",
      sql`${t.moisture} is null or (${t.kind} = 'received' and ${t.moisture} between 0 and 100)`,
    ),
  ],
);

export type Attachment = typeof attachments.$inferSelect;
export type DeliveryTicket = typeof deliveryTickets.$inferSelect;
