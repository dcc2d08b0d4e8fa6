import * as z from "zod";
import { describe, expect, it } from "vitest";
import { EARLIEST_BUSINESS_DATE } from "~/utils/business-dates";
import * as fields from "./fields";
import { recordPaymentFormConstraint } from "./payment";

describe("constraintOf: a form's browser checks read from its write's schema", () => {
  const schema = z.object({
    amount: fields.requiredDecimal({ label: "Amount", precision: 12 }),
    cost: fields.optionalDecimal({ label: "Cost", precision: 12 }),
    name: fields.requiredText("Name", 120),
    note: fields.optionalText("Note", 500),
    agentId: fields.requiredId("Agent"),
    clientId: fields.optionalId("Client"),
    date: fields.calendarDate("Date", { required: true }),
    paidOn: fields.calendarDate("Paid on", { required: false }),
    idempotencyKey: fields.optionalText("Request key", 200),
  });

  it("says what each field's parser refuses, and leaves out fields with nothing to check", () => {
    expect(fields.constraintOf(schema)).toEqual({
      amount: { required: true },
      name: { required: true, maxLength: 120 },
      note: { maxLength: 500 },
      agentId: { required: true },
      date: { required: true, min: EARLIEST_BUSINESS_DATE },
      paidOn: { required: false, min: EARLIEST_BUSINESS_DATE },
    });
  });

  it("adds what only the page knows, and omits what it is told to", () => {
    const constraint = fields.constraintOf(schema, { paidOn: { required: true, max: "2026-11-28" } }, ["name", "note"]);
    expect(constraint.paidOn).toEqual({ required: true, min: EARLIEST_BUSINESS_DATE, max: "2026-11-28" });
    expect(constraint).not.toHaveProperty("name");
    expect(constraint).toHaveProperty("idempotencyKey", { maxLength: 200 });
  });

  it("gives Record Payment the checks its dialog always had", () => {
    expect(recordPaymentFormConstraint("2026-11-28")).toEqual({
      amount: { required: true },
      paymentDate: { required: true, min: EARLIEST_BUSINESS_DATE, max: "2026-11-28" },
      reference: { maxLength: 200 },
    });
  });
});

describe("the small forms' constraints, read from their schemas", () => {
  it("Month Close and the password confirmations ask the browser for what they always did", async () => {
    const { PERIOD_FORM_CONSTRAINTS } = await import("./periods");
    const { PASSWORD_CONFIRM_FORM_CONSTRAINT } = await import("./forms");
    expect(PERIOD_FORM_CONSTRAINTS).toEqual({
      close: { month: { required: true } },
      reopen: { month: { required: true }, reason: { required: true, maxLength: 500 } },
    });
    expect(PASSWORD_CONFIRM_FORM_CONSTRAINT).toEqual({ password: { required: true } });
  });
});

describe("the directory and business forms' constraints, read from their schemas", () => {
  it("are what those forms always asked the browser to check", async () => {
    const { AGENT_FORM_CONSTRAINT, CLIENT_FORM_CONSTRAINT } = await import("./directory");
    const { BUSINESS_FORM_CONSTRAINT } = await import("./business");
    expect(AGENT_FORM_CONSTRAINT).toEqual({
      name: { required: true, maxLength: 200 },
      contact: { maxLength: 200 },
      phone: { maxLength: 100 },
      bankName: { maxLength: 100 },
      bankAccountName: { maxLength: 200 },
      bankAccountNo: { maxLength: 100 },
      whatsappNumber: { maxLength: 100 },
      email: { maxLength: 200 },
    });
    expect(CLIENT_FORM_CONSTRAINT).toEqual({
      name: { required: true, maxLength: 200 },
      taxRate: { min: 0, max: 100, step: "0.01" },
      paymentTermsDays: { min: 0, max: 3650, step: 1 },
      address: { maxLength: 500 },
      email: { maxLength: 200 },
      phone: { maxLength: 100 },
      taxNo: { maxLength: 100 },
      whatsappNumber: { maxLength: 100 },
      // Decision 1240: below 100, to the hundredth.
      whtRate: { min: 0, max: 99.99, step: "0.01" },
    });
    expect(BUSINESS_FORM_CONSTRAINT).toEqual({
      companyName: { maxLength: 200 },
      address: { maxLength: 500 },
      phone: { maxLength: 100 },
      email: { maxLength: 200 },
      registrationNo: { maxLength: 100 },
      taxNo: { maxLength: 100 },
      bankName: { maxLength: 100 },
      bankAccountName: { maxLength: 200 },
      bankAccountNo: { maxLength: 100 },
    });
  });
});
