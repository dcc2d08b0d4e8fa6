import { getFormProps, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Dialog } from "~/components/dialog";
import {
  CheckboxField,
  ConfirmFooter,
  FormErrors,
  InputField,
  SelectField,
  SubmitButton,
  TextareaField,
} from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import type { FormConstraint } from "~/schemas/fields";
import { PAY_BASIS_OPTIONS } from "~/utils/pay-basis";

const AGENT_OPTIONAL = [
  "contact",
  "phone",
  "bankName",
  "bankAccountName",
  "bankAccountNo",
  "whatsappNumber",
  "email",
] as const;
const CLIENT_OPTIONAL = ["address", "email", "phone", "taxNo", "whatsappNumber"] as const;

/** Where reminders and statement links go (docs/decisions/1260): the WhatsApp number and the "no reminders" switch. */
function ReminderContacts({ whatsapp, off }: { whatsapp: FieldMetadata<string>; off: FieldMetadata<string> }) {
  return (
    <>
      <InputField
        meta={whatsapp}
        label="WhatsApp number"
        type="tel"
        inputMode="tel"
        placeholder="0803 123 4567"
        description="Kept as +234 and ten digits; a local 080… number is converted."
      />
      <CheckboxField meta={off} label="No reminders" description="Leave out of every payment reminder." />
    </>
  );
}

type FormProps<Defaults> = {
  lastResult?: SubmissionResult<string[]> | null;
  constraint: FormConstraint;
  defaultValue?: Defaults;
  submitLabel: string;
};

/** A directory's add/edit form: the form's errors, its fields and the submit button. */
export function DirectoryForm({
  form,
  submitLabel,
  children,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form of the family
  form: FormMetadata<any, string[]>;
  submitLabel: string;
  children: ReactNode;
}) {
  const pending = useIsPending();
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <FormErrors errors={pending ? null : form.errors} id={form.errorId} />
      {children}
      <SubmitButton pending={pending} pendingLabel="Saving..." className="btn-primary w-full">
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}

/** Add Agent and Edit Agent (schema: `AgentFormSchema`). */
export function AgentForm({
  lastResult,
  constraint,
  defaultValue,
  submitLabel,
}: FormProps<
  { name?: string; payBasis?: string; remindersOff?: boolean } & Partial<
    Record<(typeof AGENT_OPTIONAL)[number], string | null>
  >
>) {
  const [form, fields] = useForm<
    { name: string; payBasis: string; remindersOff: string } & Record<(typeof AGENT_OPTIONAL)[number], string>
  >({
    lastResult,
    constraint,
    defaultValue: {
      name: defaultValue?.name ?? "",
      payBasis: defaultValue?.payBasis ?? "loaded",
      remindersOff: defaultValue?.remindersOff ? "on" : "",
      ...Object.fromEntries(AGENT_OPTIONAL.map((k) => [k, defaultValue?.[k] ?? ""])),
    },
  });
  return (
    <DirectoryForm form={form} submitLabel={submitLabel}>
      <InputField meta={fields.name} label="Agent Name *" />
      <InputField meta={fields.contact} label="Contact" placeholder="Phone or address" />
      <InputField meta={fields.phone} label="Phone" type="tel" />
      <InputField meta={fields.email} label="E-mail" type="email" />
      <ReminderContacts whatsapp={fields.whatsappNumber} off={fields.remindersOff} />
      <SelectField
        meta={fields.payBasis}
        label="Paid on"
        description="Deliveries recorded from now on are paid on this; each delivery already recorded keeps its own."
      >
        {PAY_BASIS_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </SelectField>
      <fieldset className="space-y-3">
        <legend className="label">Bank details (for settlements)</legend>
        <InputField meta={fields.bankName} label="Bank" />
        <div className="grid grid-cols-2 gap-3">
          <InputField meta={fields.bankAccountName} label="Account name" />
          <InputField meta={fields.bankAccountNo} label="Account number" inputMode="numeric" />
        </div>
      </fieldset>
    </DirectoryForm>
  );
}

/** New Client and Edit Client (schema: `ClientFormSchema`). */
export function ClientForm({
  lastResult,
  constraint,
  defaultValue,
  submitLabel,
}: FormProps<
  {
    name?: string;
    taxRate?: string;
    paymentTermsDays?: number;
    requiresReceivedTicket?: boolean;
    remindersOff?: boolean;
    whtRate?: string;
    withholdsVat?: boolean;
  } & Partial<Record<(typeof CLIENT_OPTIONAL)[number], string | null>>
>) {
  const [form, fields] = useForm<
    {
      name: string;
      taxRate: string;
      paymentTermsDays: string;
      requiresReceivedTicket: string;
      remindersOff: string;
      whtRate: string;
      withholdsVat: string;
    } & Record<(typeof CLIENT_OPTIONAL)[number], string>
  >({
    lastResult,
    constraint,
    defaultValue: {
      name: defaultValue?.name ?? "",
      taxRate: defaultValue?.taxRate ?? "0",
      paymentTermsDays: String(defaultValue?.paymentTermsDays ?? 30),
      requiresReceivedTicket: defaultValue?.requiresReceivedTicket ? "on" : "",
      remindersOff: defaultValue?.remindersOff ? "on" : "",
      whtRate: defaultValue?.whtRate ?? "0",
      withholdsVat: defaultValue?.withholdsVat ? "on" : "",
      ...Object.fromEntries(CLIENT_OPTIONAL.map((k) => [k, defaultValue?.[k] ?? ""])),
    },
  });
  return (
    <DirectoryForm form={form} submitLabel={submitLabel}>
      <InputField meta={fields.name} label="Client Name *" />
      <div className="grid grid-cols-2 gap-3">
        <InputField meta={fields.taxRate} label="Tax Rate (%)" type="number" inputMode="decimal" />
        <InputField meta={fields.paymentTermsDays} label="Payment Terms (days)" type="number" inputMode="numeric" />
      </div>
      <TextareaField meta={fields.address} label="Address" rows={2} />
      <div className="grid grid-cols-2 gap-3">
        <InputField meta={fields.email} label="E-mail" type="email" />
        <InputField meta={fields.phone} label="Phone" type="tel" />
      </div>
      <InputField meta={fields.taxNo} label="Tax number (TIN)" />
      <ReminderContacts whatsapp={fields.whatsappNumber} off={fields.remindersOff} />
      <CheckboxField
        meta={fields.requiresReceivedTicket}
        label="Invoice only with the client's ticket"
        description="A delivery is offered for invoicing once the client's weighbridge ticket is recorded, and invoiced on the accepted tons."
      />
      <InputField meta={fields.whtRate} label="WHT withheld (%)" type="number" inputMode="decimal" />
      <CheckboxField
        meta={fields.withholdsVat}
        label="Withholds VAT"
        description="The client pays invoices less the VAT they contain (some government buyers)."
      />
    </DirectoryForm>
  );
}

/** Delete Agent / Delete Client: the question and Cancel / Delete. */
export function DirectoryDeleteDialog({
  kind,
  name,
  listPath,
}: {
  kind: "Agent" | "Client";
  name: string;
  listPath: string;
}) {
  return (
    <Dialog title={`Delete ${kind}`} closeTo={listPath} size="sm">
      <p className="text-sm">Are you sure you want to delete &quot;{name}&quot;? This action cannot be undone.</p>
      <Form method="post" className="mt-4">
        <ConfirmFooter cancelTo={listPath} confirmLabel="Delete" pendingLabel="Deleting..." />
      </Form>
    </Dialog>
  );
}
