// The audit trail in plain words (docs/decisions/0900): what an event is called ("Delivery
// updated"), what each field is called and how its value reads ("Other costs ₦0.00 →
// ₦5,000.00", "Agent: Aisha Bello"), times in the business time zone, an address as people
// write it. The raw record (action codes, field names, ids, UTC) stays in GET /api/audit and the
// CSV export; this module only words it. Every action and every field the app records has its
// words here: audit-words.server.test.ts fails when one is missing.
import { formatDate, formatMonth } from "~/utils/dates";
import { formatAmount, formatNaira, formatTons } from "~/utils/money";
import { AUDIT_ACTIONS, type AuditAction, type AuditEntity } from "./audit-actions";
import { zonedParts } from "./zone-days.server";
import {
  ENUM_WORDS,
  f,
  FIELD_WORDS,
  NESTED_WORDS,
  RATE_CARD_FIELD_WORDS,
  SIGN_IN_FIELD_WORDS,
  PAYOUT_FIELD_WORDS,
  USER_FIELD_WORDS,
  type FieldKind,
  type FieldWords,
} from "./audit-field-words";

export { FIELD_WORDS };

export const ACTION_WORDS: Record<AuditAction, string> = {
  "delivery.create": "Delivery recorded",
  "delivery.update": "Delivery updated",
  "delivery.delete": "Delivery deleted",
  "delivery.ticket_record": "Weighbridge ticket recorded",
  "delivery.ticket_replace": "Weighbridge ticket replaced",
  "delivery.weights": "Delivery weights set from its ticket",
  "invoice.create": "Invoice created",
  "invoice.void": "Invoice voided",
  "invoice.profit": "Invoice profit recounted after a delivery's costs changed",
  "credit_note.create": "Credit note issued",
  "credit_note.reverse": "Credit note reversed",
  "payment.create": "Payment recorded",
  "payment.reverse": "Payment reversed",
  "payment.refund": "Refund paid",
  "payment.apply_credit": "Client credit moved",
  "receipt.create": "Receipt recorded",
  "receipt.reverse": "Receipt reversed",
  "withholding.certificate": "Withholding certificate recorded",
  "bank_statement.import": "Bank statement imported",
  "bank_line.match": "Bank line matched to a receipt",
  "bank_line.not_receipt": "Bank line marked as not a client receipt",
  "agent_payout.create": "Agent paid",
  "agent_payout.reverse": "Agent payout reversed",
  "agent_payout.approve": "Agent payout approved",
  "agent_payout.reject": "Agent payout rejected",
  "agent.create": "Agent added",
  "agent.update": "Agent updated",
  "agent.delete": "Agent deleted",
  "truck.create": "Truck added",
  "truck.update": "Truck updated",
  "client.create": "Client added",
  "client.update": "Client updated",
  "client.delete": "Client deleted",
  "client_quality_rule.create": "Quality rule added",
  "rate_card.create": "Rate card added",
  "rate_card.delete": "Rate card deleted",
  "settings.update": "Settings changed",
  "share_link.create": "Share link created",
  "share_link.revoke": "Share link revoked",
  "user.create": "User created",
  "user.reset_password": "Password reset",
  "user.freeze": "User frozen",
  "user.unfreeze": "User unfrozen",
  "user.unlock": "User unlocked",
  "user.delete": "User deleted",
  "user.role_change": "Role changed",
  "user.password_change": "Password changed",
  "auth.sign_in": "Signed in",
  "auth.sign_out": "Signed out",
  "auth.sign_in_failed": "Sign-in failed",
  "auth.locked": "Sign-in locked out",
  "auth.two_factor_enable": "Two-factor sign-in turned on",
  "auth.two_factor_disable": "Two-factor sign-in turned off",
  "auth.recovery_codes_generate": "Two-factor recovery codes made",
  "auth.recovery_code_used": "Two-factor recovery code used",
  "auth.passkey_add": "Passkey added",
  "auth.passkey_remove": "Passkey removed",
  "period.close": "Month closed",
  "period.reopen": "Month reopened",
};

export const ENTITY_WORDS: Record<AuditEntity, string> = {
  delivery: "Delivery",
  invoice: "Invoice",
  credit_note: "Credit note",
  payment: "Payment",
  receipt: "Receipt",
  withholding: "Withholding",
  bank_statement: "Bank statement",
  bank_line: "Bank line",
  agent_payout: "Agent payout",
  agent: "Agent",
  client: "Client",
  client_quality_rule: "Quality rule",
  rate_card: "Rate card",
  truck: "Truck",
  settings: "Settings",
  share_link: "Share link",
  user: "User",
  passkey: "Passkey",
  period: "Month close",
};

/** Names for the ids a page of events refers to, read in one batch per kind (see `idsToName`). */
export type AuditNames = {
  users: ReadonlyMap<string, string>;
  agents: ReadonlyMap<string, string>;
  clients: ReadonlyMap<string, string>;
  /** Invoice id → invoice number. */
  invoices: ReadonlyMap<string, string>;
};

export const NO_NAMES: AuditNames = { users: new Map(), agents: new Map(), clients: new Map(), invoices: new Map() };

/** What the trail's readers get from the model (a subset of AuditEventView). */
export type AuditEventInput = {
  id: number;
  time: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  changes: { field: string; before: unknown; after: unknown }[];
  requestId: string | null;
  clientAddress: string | null;
};

/** One event as a person reads it: every string is ready to show. */
export type AuditEventLine = {
  id: number;
  /** The instant, ISO (for `<time dateTime>`). */
  time: string;
  /** The instant in the business time zone: "Mar 6, 2026, 00:30:09 WAT". */
  when: string;
  /** "Delivery updated". */
  title: string;
  /** What it is about: "Delivery #12", "Agent Aisha Bello"; null when nothing is named. */
  subject: string | null;
  /** Who did it: a name, else the e-mail kept with the event. */
  actor: string;
  changes: { field: string; before: string | null; after: string | null }[];
  /** Where from: "127.0.0.1", never "::ffff:127.0.0.1"; null when not recorded. */
  from: string | null;
  requestId: string | null;
};

/**
 * "Mar 06, 2026 00:30 WAT": an instant in the business time zone, named, in the app's one format
 * for a moment (`formatDateTime`, decision 0841), which says "UTC" where it shows UTC.
 */
export function formatAuditTime(iso: string, timeZone: string): string {
  const p = zonedParts(timeZone, Date.parse(iso));
  return `${formatDate(`${p.year}-${p.month}-${p.day}`)} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

/** An IPv4 address as IPv6 writes it ("::ffff:127.0.0.1") reads as the IPv4 address. */
export function displayAddress(address: string | null): string | null {
  if (!address) return null;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1] : address;
}

function fieldWords(action: string, entityType: string, field: string): FieldWords | undefined {
  if (action.startsWith("auth.sign_in") || action === "auth.locked") {
    if (SIGN_IN_FIELD_WORDS[field]) return SIGN_IN_FIELD_WORDS[field];
  }
  if (entityType === "user" && USER_FIELD_WORDS[field]) return USER_FIELD_WORDS[field];
  if (entityType === "agent_payout" && PAYOUT_FIELD_WORDS[field]) return PAYOUT_FIELD_WORDS[field];
  if (entityType === "rate_card" && RATE_CARD_FIELD_WORDS[field]) return RATE_CARD_FIELD_WORDS[field];
  return FIELD_WORDS[field];
}

/** "otherCosts" → "Other costs": only for a field recorded before it had words of its own. */
function fallbackLabel(field: string) {
  const words = field.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

const refKey = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : null);

/** A value as it reads, or null for "nothing" (the page shows a dash). */
function formatFieldValue(kind: FieldKind, value: unknown, names: AuditNames, timeZone: string): string | null {
  if (value === null || value === undefined || value === "") return null;
  const key = refKey(value);
  const isDecimal = typeof value === "string" ? /^-?\d+(\.\d+)?$/.test(value) : Number.isSafeInteger(value);
  switch (kind) {
    case "money":
      return isDecimal ? formatNaira(value as string | number) : String(value);
    case "percent":
      return isDecimal ? `${value}%` : String(value);
    case "tons":
      return isDecimal ? `${formatTons(value as string | number)} t` : String(value);
    case "days":
      return `${value} ${value === 1 ? "day" : "days"}`;
    case "kg":
      return isDecimal ? `${formatAmount(value as string | number, 0)} kg` : String(value);
    case "date":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(value) : String(value);
    case "time":
      return typeof value === "string" && !Number.isNaN(Date.parse(value))
        ? formatAuditTime(value, timeZone)
        : String(value);
    case "month":
      return typeof value === "string" && /^\d{4}-\d{2}$/.test(value) ? formatMonth(value) : String(value);
    case "yesNo":
      return value === true || value === 1 ? "Yes" : value === false || value === 0 ? "No" : String(value);
    case "agent":
      return (key && names.agents.get(key)) ?? `Agent #${key}`;
    case "client":
      return (key && names.clients.get(key)) ?? `Client #${key}`;
    case "user":
      return (key && names.users.get(key)) ?? "Unknown user";
    case "invoice": {
      const no = key ? names.invoices.get(key) : undefined;
      return no ? `#${no}` : `Invoice id ${key}`;
    }
    case "delivery":
      return `#${key}`;
    case "payment":
      return `Payment #${key}`;
    case "creditNote":
      return `Credit note #${key}`;
    case "payout":
      return `Payout #${key}`;
    case "rateCard":
      return `Card #${key}`;
    case "hidden":
    case "text":
      if (Array.isArray(value)) return value.join(", ");
      return typeof value === "string" ? value : JSON.stringify(value);
    default: {
      const words = ENUM_WORDS[kind];
      return typeof value === "string" && words?.[value] ? words[value] : String(value);
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !Array.isArray(value);

/** A change of a nested object becomes one change per inner field that differs. */
function expand(change: { field: string; before: unknown; after: unknown }) {
  if (!(change.field in NESTED_WORDS) || !(isObject(change.before) || isObject(change.after))) return [change];
  const before = isObject(change.before) ? change.before : null;
  const after = isObject(change.after) ? change.after : null;
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys
    .map((key) => ({ field: key, parent: change.field, before: before?.[key] ?? null, after: after?.[key] ?? null }))
    .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));
}

function subjectOf(event: AuditEventInput, names: AuditNames): string | null {
  const row = { ...event.before, ...event.after };
  const id = event.entityId;
  const text = (value: unknown) => (typeof value === "string" && value ? value : null);
  switch (event.entityType) {
    case "delivery":
      return id ? `Delivery #${id}` : "Delivery";
    case "invoice": {
      const no = text(row.invoiceNo) ?? (id ? names.invoices.get(id) : undefined);
      return no ? `Invoice #${no}` : `Invoice id ${id}`;
    }
    case "credit_note": {
      const no = text(row.creditNoteNo);
      const on = text(row.invoiceNo);
      return `${no ? `Credit note ${no}` : `Credit note #${id}`}${on ? ` on invoice #${on}` : ""}`;
    }
    case "payment": {
      const on = text(row.invoiceNo) ?? text(isObject(row.from) ? row.from.invoiceNo : null);
      return `Payment #${id}${on ? ` on invoice #${on}` : ""}`;
    }
    case "receipt": {
      const client = text(row.clientName);
      return `Receipt #${id}${client ? ` from ${client}` : ""}`;
    }
    case "withholding":
      return `Withholding #${id}${text(row.invoiceNo) ? ` on invoice #${row.invoiceNo}` : ""}`;
    case "bank_statement":
      return `Bank statement #${id}${text(row.fileName) ? ` (${row.fileName})` : ""}`;
    case "bank_line":
      return `Bank line #${id}${text(row.lineDate) ? ` of ${formatDate(text(row.lineDate)!)}` : ""}`;
    case "agent_payout": {
      const agent = text(row.agentName) ?? (refKey(row.agentId) ? names.agents.get(refKey(row.agentId)!) : undefined);
      return `Payout #${id}${agent ? ` to ${agent}` : ""}`;
    }
    case "agent":
      return `Agent ${text(row.name) ?? (id ? names.agents.get(id) : undefined) ?? `#${id}`}`;
    case "client":
      return `Client ${text(row.name) ?? (id ? names.clients.get(id) : undefined) ?? `#${id}`}`;
    case "client_quality_rule": {
      const client = refKey(row.clientId) ? names.clients.get(refKey(row.clientId)!) : undefined;
      const from = text(row.validFrom);
      return `Quality rule${client ? ` of ${client}` : ""}${from ? ` from ${formatDate(from)}` : ""}`;
    }
    case "rate_card": {
      const kind = text(row.kind);
      const from = text(row.validFrom);
      return `${kind ? (ENUM_WORDS.rateKind?.[kind] ?? kind) : "Rate"} card #${id}${from ? ` from ${formatDate(from)}` : ""}`;
    }
    case "truck":
      return `Truck ${text(row.plate) ?? `#${id}`}`;
    case "share_link":
      return `Share link #${id}`;
    case "settings":
      return "companyName" in row || "registrationNo" in row ? "Business details" : "Rates and settings";
    case "user": {
      if (!id) return null;
      return names.users.get(id) ?? text(row.email) ?? "Unknown user";
    }
    case "passkey":
      return `Passkey${text(row.deviceName) ? ` "${row.deviceName}"` : ""}`;
    case "period":
      return id && /^\d{4}-\d{2}$/.test(id) ? formatMonth(id) : id;
    default:
      return id ? `${event.entityType} #${id}` : null;
  }
}

function actorOf(event: AuditEventInput, names: AuditNames): string {
  const named = event.actorId ? names.users.get(event.actorId) : undefined;
  if (named) return named;
  if (event.actorEmail) return event.actorEmail;
  // No actor: nobody was signed in (a sign-in attempt), or the app itself (the first admin).
  return event.action.startsWith("auth.") ? "Not signed in" : "The system";
}

/** One event in plain words. */
export function describeAuditEvent(event: AuditEventInput, names: AuditNames, timeZone: string): AuditEventLine {
  const changes = event.changes.flatMap(expand).flatMap((change) => {
    const parent = "parent" in change ? (change.parent as string) : null;
    // A nested entry's id names it (the payments of a credit move or a reversal's pair).
    const words =
      parent && change.field === "id"
        ? f("Entry", "payment")
        : fieldWords(event.action, event.entityType, change.field);
    const kind = words?.kind ?? "text";
    if (kind === "hidden") return [];
    const label = words?.label ?? fallbackLabel(change.field);
    return [
      {
        field: parent ? `${NESTED_WORDS[parent]}: ${label}` : label,
        before: formatFieldValue(kind, change.before, names, timeZone),
        after: formatFieldValue(kind, change.after, names, timeZone),
      },
    ];
  });
  return {
    id: event.id,
    time: event.time,
    when: formatAuditTime(event.time, timeZone),
    title: ACTION_WORDS[event.action as AuditAction] ?? fallbackLabel(event.action.replace(".", " ")),
    subject: subjectOf(event, names),
    actor: actorOf(event, names),
    changes,
    from: displayAddress(event.clientAddress),
    requestId: event.requestId,
  };
}

/** The ids a page of events names, by kind, so each kind is read once for the whole page. */
export function idsToName(events: readonly AuditEventInput[]) {
  const ids = {
    users: new Set<string>(),
    agents: new Set<string>(),
    clients: new Set<string>(),
    invoices: new Set<string>(),
  };
  const KIND_SET: Partial<Record<FieldKind, Set<string>>> = {
    user: ids.users,
    agent: ids.agents,
    client: ids.clients,
    invoice: ids.invoices,
  };
  const visit = (event: AuditEventInput, snapshot: Record<string, unknown> | null) => {
    for (const [field, value] of Object.entries(snapshot ?? {})) {
      if (field in NESTED_WORDS && isObject(value)) visit(event, value);
      const kind = fieldWords(event.action, event.entityType, field)?.kind;
      const key = refKey(value);
      if (kind && key && KIND_SET[kind]) KIND_SET[kind]!.add(key);
    }
  };
  for (const event of events) {
    if (event.actorId) ids.users.add(event.actorId);
    if (event.entityId && event.entityType === "user") ids.users.add(event.entityId);
    if (event.entityId && event.entityType === "agent") ids.agents.add(event.entityId);
    if (event.entityId && event.entityType === "client") ids.clients.add(event.entityId);
    if (event.entityId && event.entityType === "invoice") ids.invoices.add(event.entityId);
    visit(event, event.before);
    visit(event, event.after);
  }
  return { users: [...ids.users], agents: [...ids.agents], clients: [...ids.clients], invoices: [...ids.invoices] };
}

/** The actions for a filter's choices, in plain words (the value stays the action's code). */
export const ACTION_CHOICES = AUDIT_ACTIONS.map((action) => ({ value: action, label: ACTION_WORDS[action] }));

/** The fields of an event that have no words of their own (a test holds this empty). */
export function unwordedFields(event: Pick<AuditEventInput, "action" | "entityType" | "before" | "after">): string[] {
  const missing = new Set<string>();
  const visit = (snapshot: Record<string, unknown> | null, nested: boolean) => {
    for (const [field, value] of Object.entries(snapshot ?? {})) {
      if (!nested && field in NESTED_WORDS && isObject(value)) visit(value, true);
      else if (!fieldWords(event.action, event.entityType, field)) missing.add(field);
    }
  };
  visit(event.before, false);
  visit(event.after, false);
  return [...missing];
}
