import * as z from "zod";
import { bankFields, NAME_MAX, optionalAddress, optionalEmail, SHORT_MAX } from "./directory";
import { constraintOf, optionalText, formSchema } from "./fields";

/** The company on its invoices (System Settings, Business Details). Every field is optional. */
export const BusinessDetailsSchema = z.object({
  companyName: optionalText("Company name", NAME_MAX),
  address: optionalAddress("Address"),
  phone: optionalText("Phone", SHORT_MAX),
  email: optionalEmail("E-mail"),
  registrationNo: optionalText("Registration number", SHORT_MAX),
  taxNo: optionalText("Tax number", SHORT_MAX),
  ...bankFields,
});
export type BusinessDetailsInput = z.infer<typeof BusinessDetailsSchema>;

export const BusinessDetailsFormSchema = formSchema(BusinessDetailsSchema);
export const BUSINESS_FORM_CONSTRAINT = constraintOf(BusinessDetailsSchema);

export const BUSINESS_TEXT_FIELDS = Object.keys(BusinessDetailsSchema.shape) as (keyof BusinessDetailsInput)[];
