// The words of each field an audit event records (docs/decisions/0900): its label and how its
// value reads. Kept apart from audit-words.server.ts, which words whole events with them.
/** How a field's value reads. A reference kind (`agent`, `user`, ...) shows a name, not an id. */
export type FieldKind =
  | "text"
  | "money"
  | "percent"
  | "tons"
  | "days"
  | "kg"
  | "count"
  | "date"
  | "time"
  | "month"
  | "yesNo"
  | "agent"
  | "client"
  | "user"
  | "invoice"
  | "delivery"
  | "payment"
  | "creditNote"
  | "payout"
  | "role"
  | "userStatus"
  | "deliveryStatus"
  | "payBasis"
  | "ticketKind"
  | "paymentStatus"
  | "payoutMethod"
  | "payoutKind"
  | "payoutStatus"
  | "signInMethod"
  | "signInReason"
  | "throttleScope"
  | "rateKind"
  | "rateSource"
  | "rateCard"
  | "shareScope"
  /** Recorded, but says nothing a reader needs beside the event's own line (its id, its time). */
  | "hidden";

export type FieldWords = { label: string; kind: FieldKind };
export const f = (label: string, kind: FieldKind = "text"): FieldWords => ({ label, kind });

/** Every field an event records (the rows' columns, and the extra fields events add). */
export const FIELD_WORDS: Record<string, FieldWords> = {
  // Every row
  id: f("ID", "hidden"),
  createdAt: f("Created", "hidden"),
  updatedAt: f("Updated", "hidden"),
  createdBy: f("Entered by", "user"),
  // Deliveries
  date: f("Date", "date"),
  agentId: f("Agent", "agent"),
  clientId: f("Client", "client"),
  tons: f("Tons", "tons"),
  truckNo: f("Truck no."),
  location: f("Location"),
  moisture: f("Moisture", "percent"),
  remarks: f("Remarks"),
  status: f("Status", "deliveryStatus"),
  buyingRate: f("Buying rate", "money"),
  sellingRate: f("Selling rate", "money"),
  logisticsCost: f("Logistics cost", "money"),
  otherCosts: f("Other costs", "money"),
  otherCostsDescription: f("Other costs description"),
  mobilizationPayment: f("Mobilization payment", "money"),
  // Weights (docs/decisions/1220)
  receivedTons: f("Received tons", "tons"),
  qualityRuleId: f("Quality rule", "hidden"),
  qualityDeductionTons: f("Quality deduction", "tons"),
  acceptedTons: f("Accepted tons", "tons"),
  invoicedTons: f("Invoiced tons", "tons"),
  paidTons: f("Tons paid to the agent", "tons"),
  payBasis: f("Agent paid on", "payBasis"),
  requiresReceivedTicket: f("Invoiced only with the client's ticket", "yesNo"),
  // Weighbridge tickets (docs/decisions/1220)
  kind: f("Ticket", "ticketKind"),
  ticketNo: f("Ticket no."),
  weighbridge: f("Weighbridge", "hidden"),
  truckId: f("Truck", "hidden"),
  grossKg: f("Gross", "kg"),
  tareKg: f("Tare", "kg"),
  netKg: f("Net", "kg"),
  weighedAt: f("Weighed at", "time"),
  photoId: f("Photo", "hidden"),
  offloadingCost: f("Offloading cost", "money"),
  invoiceId: f("Invoice", "invoice"),
  // Invoices
  invoiceNo: f("Invoice no."),
  deliveryId: f("First delivery", "delivery"),
  amount: f("Amount", "money"),
  taxRate: f("Tax rate", "percent"),
  profit: f("Profit", "money"),
  expectedPaymentDate: f("Due date", "date"),
  paymentStatus: f("Payment status", "paymentStatus"),
  amountPaid: f("Amount paid", "money"),
  amountCredited: f("Amount credited", "money"),
  voidReason: f("Reason for voiding"),
  voidedAt: f("Voided at", "time"),
  voidedBy: f("Voided by", "user"),
  issueDate: f("Issue date", "date"),
  deliveryCount: f("Deliveries", "count"),
  editedDeliveryId: f("Delivery edited", "delivery"),
  firstDeliveryId: f("First delivery", "delivery"),
  lastDeliveryId: f("Last delivery", "delivery"),
  freedDeliveryCount: f("Deliveries freed", "count"),
  firstFreedDeliveryId: f("First delivery freed", "delivery"),
  lastFreedDeliveryId: f("Last delivery freed", "delivery"),
  // Credit notes
  creditNoteNo: f("Credit note no."),
  reason: f("Reason"),
  reversesCreditNoteId: f("Reverses credit note", "creditNote"),
  // Payments, refunds, credit moves
  paymentDate: f("Payment date", "date"),
  reference: f("Reference"),
  note: f("Note"),
  refund: f("Refund", "yesNo"),
  reversesPaymentId: f("Reverses payment", "payment"),
  creditMovedToInvoiceId: f("Credit moved to invoice", "invoice"),
  creditFromPaymentId: f("Credit from payment", "payment"),
  clientCredit: f("Client credit", "money"),
  // Receipts and withholdings (docs/decisions/1240)
  receiptId: f("Receipt", "hidden"),
  receiptDate: f("Receipt date", "date"),
  clientName: f("Client"),
  whtRate: f("WHT rate", "percent"),
  withholdsVat: f("Withholds VAT", "yesNo"),
  allocations: f("Allocations"),
  amountWithheld: f("Withheld", "money"),
  withholdingDate: f("Withholding date", "date"),
  wht: f("WHT", "money"),
  vat: f("VAT withheld", "money"),
  reversesWithholdingId: f("Reverses withholding", "hidden"),
  // The bank statement import (docs/decisions/1241)
  fileName: f("File"),
  bankAccount: f("Bank account"),
  linesRead: f("Lines read", "count"),
  linesAdded: f("Lines added", "count"),
  lineDate: f("Bank line date", "date"),
  narration: f("Narration"),
  bankLineId: f("Bank line", "hidden"),
  withholdingId: f("Withholding", "hidden"),
  certificateNo: f("Certificate no."),
  receivedOn: f("Received on", "date"),
  reversals: f("Reversals", "count"),
  invoices: f("Invoices"),
  // Agent payouts
  payoutDate: f("Payout date", "date"),
  method: f("Method", "payoutMethod"),
  reversesPayoutId: f("Reverses payout", "payout"),
  decidedBy: f("Decided by", "user"),
  decidedAt: f("Decided", "time"),
  decisionReason: f("Reason for the decision"),
  payoutApprovalLimit: f("Payout approval limit", "money"),
  agentName: f("Agent"),
  owed: f("Owed to the agent", "money"),
  // Agents and clients
  name: f("Name"),
  contact: f("Contact"),
  phone: f("Phone"),
  email: f("E-mail"),
  address: f("Address"),
  taxNo: f("Tax no."),
  bankName: f("Bank"),
  bankAccountName: f("Account name"),
  bankAccountNo: f("Account no."),
  paymentTermsDays: f("Payment terms", "days"),
  // Client quality rules (docs/decisions/1210)
  validFrom: f("Valid from", "date"),
  moistureThreshold: f("Moisture threshold", "percent"),
  deductionPerPoint: f("Deduction per point", "percent"),
  // Trucks
  plate: f("Plate"),
  plateKey: f("Plate key", "hidden"),
  transporter: f("Transporter"),
  usualTareKg: f("Usual tare", "kg"),
  // Settings and business details
  deliveryClientName: f("Client name on deliveries"),
  reminderLevels: f("Reminder levels (days from the due date)"),
  // Contacts and share links (docs/decisions/1260)
  whatsappNumber: f("WhatsApp number"),
  remindersOff: f("No reminders", "yesNo"),
  scope: f("Shared document", "shareScope"),
  subjectId: f("Document id"),
  expiresAt: f("Expires", "time"),
  revokedAt: f("Revoked", "time"),
  updatedBy: f("Changed by", "user"),
  companyName: f("Company name"),
  registrationNo: f("Registration no."),
  logoType: f("Logo format"),
  logoUpdatedAt: f("Logo changed", "time"),
  // Users, sign-ins, factors
  firstName: f("First name"),
  lastName: f("Last name"),
  profileImageUrl: f("Profile picture"),
  role: f("Role", "role"),
  mustChangePassword: f("Must choose a new password", "yesNo"),
  totpEnabled: f("Two-factor sign-in", "yesNo"),
  recoveryCodes: f("Recovery codes made", "count"),
  temporaryPasswordExpiresAt: f("Temporary password expires", "time"),
  temporaryPasswordIssuedAt: f("Temporary password issued", "time"),
  temporaryPasswordUsedAt: f("Temporary password used", "time"),
  userId: f("User", "user"),
  credentialId: f("Credential", "hidden"),
  transports: f("Connection"),
  deviceName: f("Device"),
  lastUsedAt: f("Last used", "time"),
  // Rate cards (docs/decisions/1230), and where a delivery's rates came from
  rate: f("Rate", "money"),
  site: f("Pick-up site"),
  siteKey: f("Site key", "hidden"),
  buyingRateCardId: f("Buying rate card", "rateCard"),
  sellingRateCardId: f("Selling rate card", "rateCard"),
  offloadingCostCardId: f("Offloading cost card", "rateCard"),
  haulageCardId: f("Haulage card", "rateCard"),
  buyingRateSource: f("Buying rate from", "rateSource"),
  sellingRateSource: f("Selling rate from", "rateSource"),
  offloadingCostSource: f("Offloading cost from", "rateSource"),
  logisticsCostSource: f("Logistics cost from", "rateSource"),
  // Month close
  closedThrough: f("Closed through", "month"),
};

/** Fields of a user's row whose meaning differs from the generic one. */
export const USER_FIELD_WORDS: Record<string, FieldWords> = { status: f("Status", "userStatus") };
/** Fields of an agent payout whose meaning differs from the generic one (docs/decisions/1250). */
export const PAYOUT_FIELD_WORDS: Record<string, FieldWords> = {
  kind: f("Kind", "payoutKind"),
  status: f("Status", "payoutStatus"),
};
/** Fields of a rate card whose meaning differs from the generic one (docs/decisions/1230). */
export const RATE_CARD_FIELD_WORDS: Record<string, FieldWords> = { kind: f("Kind", "rateKind") };
/** Fields of a sign-in event. */
export const SIGN_IN_FIELD_WORDS: Record<string, FieldWords> = {
  method: f("Method", "signInMethod"),
  reason: f("Reason", "signInReason"),
  scope: f("Limit reached", "throttleScope"),
  attempts: f("Attempts counted", "count"),
  until: f("Refused until", "time"),
};

/** Objects some events nest (a credit move's two invoices and two entries, a reversal's pair). */
export const NESTED_WORDS: Record<string, string> = {
  from: "From invoice",
  to: "To invoice",
  moveOut: "Credit out",
  moveIn: "Credit in",
  partner: "Paired entry",
};

export const ENUM_WORDS: Partial<Record<FieldKind, Record<string, string>>> = {
  role: { staff: "Staff", manager: "Manager", admin: "Admin" },
  userStatus: { active: "Active", frozen: "Frozen", deleted: "Deleted" },
  deliveryStatus: { draft: "Draft", confirmed: "Confirmed", invoiced: "Invoiced" },
  payBasis: { loaded: "Loaded tons", received: "Received tons", accepted: "Accepted tons" },
  rateKind: {
    buying: "Buying rate",
    selling: "Selling rate",
    offloading: "Offloading cost",
    haulage: "Haulage per ton",
  },
  rateSource: { card: "Rate card", default: "System Settings", typed: "Typed", override: "Changed by hand" },
  ticketKind: { loading: "Loading ticket", received: "Client's ticket" },
  paymentStatus: { pending: "Pending", partial: "Partly paid", paid: "Paid", overdue: "Overdue", void: "Void" },
  payoutMethod: { cash: "Cash", bank_transfer: "Bank transfer", cheque: "Cheque", other: "Other" },
  payoutKind: { settlement: "Settlement", advance: "Advance" },
  payoutStatus: { approved: "Approved", pending: "Awaiting approval", rejected: "Rejected" },
  signInMethod: { password: "Password", "password+totp": "Password and code", passkey: "Passkey" },
  throttleScope: {
    "account-address": "This account from this address",
    account: "This account, from addresses that failed on it",
    address: "This address",
    "passkey-options": "Passkey sign-ins from this address",
  },
  shareScope: { invoice: "Invoice", "client-statement": "Client statement", "agent-statement": "Agent statement" },
  signInReason: {
    invalid: "Wrong e-mail or password",
    inactive: "Account frozen or deleted",
    expired: "Temporary password expired",
    code: "Wrong code",
    "unknown-passkey": "Passkey not known",
    "other-account": "Passkey of another account",
    signature: "Passkey signature did not match",
    counter: "Passkey counter went backwards (a copied key?)",
  },
};
