// What the audit trail records (docs/decisions/0900): every action, `entity.verb`, and every kind
// of entity. Plain data, so the wording (audit-words.server.ts) and its test can read it.

/** Every action the app records, `entity.verb`. */
export const AUDIT_ACTIONS = [
  "delivery.create",
  "delivery.update",
  "delivery.delete",
  "invoice.create",
  "invoice.void",
  "credit_note.create",
  "credit_note.reverse",
  "payment.create",
  "payment.reverse",
  "payment.refund",
  "payment.apply_credit",
  "agent_payout.create",
  "agent_payout.reverse",
  "agent.create",
  "agent.update",
  "agent.delete",
  "client.create",
  "client.update",
  "client.delete",
  "settings.update",
  "user.create",
  "user.reset_password",
  "user.freeze",
  "user.unfreeze",
  "user.unlock",
  "user.delete",
  "user.role_change",
  "user.password_change",
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.locked",
  "auth.two_factor_enable",
  "auth.two_factor_disable",
  "auth.passkey_add",
  "auth.passkey_remove",
  "period.close",
  "period.reopen",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ENTITIES = [
  "delivery",
  "invoice",
  "credit_note",
  "payment",
  "agent_payout",
  "agent",
  "client",
  "settings",
  "user",
  "passkey",
  "period",
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];
