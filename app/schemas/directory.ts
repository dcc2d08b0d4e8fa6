import * as z from "zod";
import { compare, parseDecimalInput } from "~/utils/money";
import type { PayBasis } from "~/db.server";
import { PAY_BASIS_OPTIONS } from "~/utils/pay-basis";
import { normalizeWhatsapp, WHATSAPP_MESSAGE } from "~/rules/phone";
import { checked, constraintOf, optionalText, requiredText, formSchema } from "./fields";

export const NAME_MAX = 200;
const ADDRESS_MAX = 500;
export const SHORT_MAX = 100;

/** An optional address: line ends as browsers post them (CRLF) are kept as plain line feeds. */
export function optionalAddress(label: string) {
  return checked(
    z.preprocess(
      (value) => (typeof value === "string" ? value.replace(/\r\n?/g, "\n") : value),
      optionalText(label, ADDRESS_MAX, { multiline: true }),
    ),
    { maxLength: ADDRESS_MAX },
  );
}

/** An optional e-mail address: blank is none; otherwise it must look like one. */
export function optionalEmail(label: string) {
  const email = optionalText(label, NAME_MAX).transform((value, ctx) => {
    if (value && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
      ctx.addIssue({ code: "custom", message: `${label} must be an e-mail address` });
      return z.NEVER;
    }
    return value;
  });
  return checked(email, { maxLength: NAME_MAX });
}

/**
 * A WhatsApp number (docs/decisions/1260): blank is none; else a Nigerian number, kept as +234 and
 * ten digits (a local 0803… number is converted).
 */
export function whatsappField(label: string) {
  const field = optionalText(label, SHORT_MAX).transform((value, ctx) => {
    if (!value) return value;
    const international = normalizeWhatsapp(value);
    if (!international) {
      ctx.addIssue({ code: "custom", message: `${label}: ${WHATSAPP_MESSAGE}` });
      return z.NEVER;
    }
    return international;
  });
  return checked(field, { maxLength: SHORT_MAX });
}

/**
 * "No reminders" (docs/decisions/1260): JSON true or false; the form's checkbox posts "on" (its
 * route says false when it is not ticked). Blank or absent is "not given": a new one gets
 * reminders, an edit keeps what was set.
 */
const remindersOff = z.unknown().transform((value, ctx): boolean | undefined => {
  if (value === undefined || value === null || value === "") return undefined;
  if (value === true || value === "on" || value === "true") return true;
  if (value === false || value === "false") return false;
  ctx.addIssue({ code: "custom", message: "No reminders must be true or false" });
  return z.NEVER;
});

/** Bank details for payment instructions or settlements; every part optional. */
export const bankFields = {
  bankName: optionalText("Bank name", SHORT_MAX),
  bankAccountName: optionalText("Account name", NAME_MAX),
  bankAccountNo: optionalText("Account number", SHORT_MAX),
};

/** An agent's pay basis: one of PAY_BASIS_OPTIONS; blank or absent is "not given" (undefined). */
const payBasis = z.unknown().transform((value, ctx): PayBasis | undefined => {
  if (value === undefined || value === null || value === "") return undefined;
  const basis = PAY_BASIS_OPTIONS.find((o) => o.value === value);
  if (!basis) {
    ctx.addIssue({ code: "custom", message: "Paid on must be loaded, received or accepted" });
    return z.NEVER;
  }
  return basis.value;
});

export const AgentSchema = z.object({
  name: requiredText("Agent name", NAME_MAX),
  contact: optionalText("Contact", NAME_MAX),
  phone: optionalText("Phone", SHORT_MAX),
  ...bankFields,
  payBasis,
  whatsappNumber: whatsappField("WhatsApp number"),
  email: optionalEmail("E-mail"),
  remindersOff,
});

/** The Add/Edit Agent form (the same rules as the JSON calls). */
export const AgentFormSchema = formSchema(AgentSchema);
export const AGENT_FORM_CONSTRAINT = constraintOf(AgentSchema);

/**
 * Payment terms: whole days, 0 to 3650. On the HTML form non-numeric input counts as 0 (spec);
 * a number that is not whole ("2.5", which the browser refuses but a post can carry) is refused
 * there as on the JSON call, never read as 0.
 */
function paymentTerms({ lenient }: { lenient: boolean }) {
  const days = z.unknown().transform((value, ctx) => {
    if (value === undefined || value === null || value === "") return 30;
    const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
    if (!/^-?\d+$/.test(text)) {
      if (lenient && typeof value === "string" && !Number.isFinite(Number(text))) return 0;
      ctx.addIssue({ code: "custom", message: "Payment terms must be a whole number of days" });
      return z.NEVER;
    }
    const days = Number(text);
    if (days < 0 || days > 3650) {
      ctx.addIssue({ code: "custom", message: "Payment terms must be between 0 and 3650 days" });
      return z.NEVER;
    }
    return days;
  });
  return checked(days, { min: 0, max: 3650, step: 1 });
}

/** Tax rate: a percent from 0 to 100 with at most 2 decimals, kept as a decimal string. */
export const taxRate = percentField("0");
export const optionalTaxRate = percentField(undefined);

function percentField<Blank extends string | undefined>(blank: Blank) {
  const percent = z.unknown().transform((value, ctx): string | Blank => {
    if (value === undefined || value === null || value === "") return blank;
    const parsed = parseDecimalInput(typeof value === "number" ? String(value) : String(value), {
      label: "Tax rate",
      precision: 5,
    });
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    if (compare(parsed.value, "100") > 0) {
      ctx.addIssue({ code: "custom", message: "Tax rate must be between 0 and 100" });
      return z.NEVER;
    }
    return parsed.value;
  });
  return checked(percent, { min: 0, max: 100, step: "0.01" });
}

/**
 * Whether a client's deliveries are invoiced only once its own weighbridge ticket is recorded
 * (docs/decisions/1220): JSON true or false; the form's checkbox posts "on" (its route says false
 * when it is not ticked). Blank or absent is "not given" (undefined): a new client does not
 * require it, an edit keeps what was set.
 */
const requiresReceivedTicket = z.unknown().transform((value, ctx): boolean | undefined => {
  if (value === undefined || value === null || value === "") return undefined;
  if (value === true || value === "on" || value === "true") return true;
  if (value === false || value === "false") return false;
  ctx.addIssue({ code: "custom", message: "Invoice only with the client's ticket must be true or false" });
  return z.NEVER;
});

/**
 * What a client withholds from what it pays (docs/decisions/1240): a WHT percent below 100 with at
 * most 2 decimals, and whether it withholds the VAT too. Blank or absent is "not given"
 * (undefined): a new client withholds nothing, an edit keeps what was set, so a JSON call written
 * before these existed never clears them.
 */
const whtRate = checked(
  z.unknown().transform((value, ctx): string | undefined => {
    if (value === undefined || value === null || value === "") return undefined;
    const parsed = parseDecimalInput(String(value), { label: "WHT rate", precision: 5 });
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    if (compare(parsed.value, "100") >= 0) {
      ctx.addIssue({ code: "custom", message: "WHT rate must be at least 0 and below 100" });
      return z.NEVER;
    }
    return parsed.value;
  }),
  { min: 0, max: 99.99, step: "0.01" },
);

const withholdsVat = z.unknown().transform((value, ctx): boolean | undefined => {
  if (value === undefined || value === null || value === "") return undefined;
  if (value === true || value === "on" || value === "true") return true;
  if (value === false || value === "false") return false;
  ctx.addIssue({ code: "custom", message: "Withholds VAT must be true or false" });
  return z.NEVER;
});

export const clientSchema = (lenient: boolean) =>
  z.object({
    name: requiredText("Client name", NAME_MAX),
    taxRate,
    paymentTermsDays: paymentTerms({ lenient }),
    address: optionalAddress("Address"),
    email: optionalEmail("E-mail"),
    phone: optionalText("Phone", SHORT_MAX),
    taxNo: optionalText("Tax number", SHORT_MAX),
    requiresReceivedTicket,
    whatsappNumber: whatsappField("WhatsApp number"),
    remindersOff,
    whtRate,
    withholdsVat,
  });

/** The New/Edit Client form: non-numeric payment terms count as 0 there (spec section 5). */
export const ClientFormSchema = formSchema(clientSchema(true));
export const CLIENT_FORM_CONSTRAINT = constraintOf(clientSchema(true));
