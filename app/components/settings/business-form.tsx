import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { Field, FormErrors, InputField, SubmitButton, TextareaField } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import type { BusinessDetailsView } from "~/models/business.server";
import type { FormConstraint } from "~/schemas/fields";

/**
 * Business Details (schema: `BusinessDetailsFormSchema`): what invoices print in their header
 * and payment instructions. A multipart form, so the logo uploads without JavaScript too.
 */
export function BusinessDetailsForm({
  details,
  constraint,
  lastResult,
}: {
  details: BusinessDetailsView;
  constraint: FormConstraint;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const pending = useIsPending();
  const { logoUrl, ...text } = details;
  const [form, fields] = useForm({
    id: "business",
    lastResult,
    constraint,
    defaultValue: Object.fromEntries(Object.entries(text).map(([k, v]) => [k, v ?? ""])),
  });
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-6">
      <FormErrors errors={pending ? null : form.errors} id={form.errorId} />
      <section className="card grid gap-4 p-5 sm:grid-cols-2" aria-labelledby="company-title">
        <h2 id="company-title" className="font-semibold sm:col-span-2">
          Company
        </h2>
        <InputField meta={fields.companyName} label="Company name" className="sm:col-span-2" />
        <TextareaField meta={fields.address} label="Address" rows={3} className="sm:col-span-2" />
        <InputField meta={fields.phone} label="Phone" type="tel" />
        <InputField meta={fields.email} label="E-mail" type="email" />
        <InputField meta={fields.registrationNo} label="Registration number (RC)" />
        <InputField meta={fields.taxNo} label="Tax number (TIN)" />
      </section>
      <section className="card grid gap-4 p-5 sm:grid-cols-2" aria-labelledby="bank-title">
        <div className="sm:col-span-2">
          <h2 id="bank-title" className="font-semibold">
            Payment instructions
          </h2>
          <p className="page-subtitle">The account invoices ask clients to pay into.</p>
        </div>
        <InputField meta={fields.bankName} label="Bank" className="sm:col-span-2" />
        <InputField meta={fields.bankAccountName} label="Account name" />
        <InputField meta={fields.bankAccountNo} label="Account number" inputMode="numeric" />
      </section>
      <section className="card space-y-4 p-5" aria-labelledby="logo-title">
        <h2 id="logo-title" className="font-semibold">
          Logo
        </h2>
        {logoUrl ? (
          <div className="flex items-center gap-4">
            <img
              src={logoUrl}
              alt="Current logo"
              className="h-16 w-auto rounded border border-slate-200 bg-white p-1"
            />
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="removeLogo" value="on" /> Remove the logo
            </label>
          </div>
        ) : (
          <p className="page-subtitle">No logo yet: invoices print the company name alone.</p>
        )}
        <Field meta={fields.logo} label={logoUrl ? "Replace logo" : "Logo"} description="PNG or JPEG, at most 200 KB.">
          <input
            id={fields.logo.id}
            name={fields.logo.name}
            type="file"
            accept="image/png,image/jpeg"
            className="block text-sm"
            aria-invalid={fields.logo.errors?.length ? true : undefined}
            aria-describedby={[fields.logo.descriptionId, fields.logo.errors?.length ? fields.logo.errorId : null]
              .filter(Boolean)
              .join(" ")}
          />
        </Field>
      </section>
      <div className="flex gap-2">
        <SubmitButton pending={pending} pendingLabel="Saving..." className="btn-primary">
          Save Business Details
        </SubmitButton>
        <Link to="/settings" className="btn-ghost">
          Back to Settings
        </Link>
      </div>
    </Form>
  );
}
