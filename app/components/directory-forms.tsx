import { Form, useNavigation } from "@remix-run/react";
import { FieldError, FormError } from "./dialog";

export type FormState = { message?: string; fieldErrors?: Record<string, string[]>; values?: Record<string, unknown> } | undefined;

export function AgentForm({ state, defaults, submitLabel }: { state: FormState; defaults?: { name?: string; contact?: string | null }; submitLabel: string }) {
  const busy = useNavigation().state !== "idle";
  const values = (state?.values ?? {}) as Record<string, string>;
  const errors = state?.fieldErrors ?? {};
  return (
    <Form method="post" className="space-y-4">
      {state?.message && !Object.keys(errors).length ? <FormError errors={[state.message]} /> : null}
      <div>
        <label className="label" htmlFor="name">Agent Name *</label>
        <input id="name" name="name" className="input" required maxLength={200} defaultValue={values.name ?? defaults?.name ?? ""} />
        <FieldError errors={errors.name} />
      </div>
      <div>
        <label className="label" htmlFor="contact">Contact</label>
        <input id="contact" name="contact" className="input" maxLength={200} placeholder="Phone or address" defaultValue={values.contact ?? defaults?.contact ?? ""} />
        <FieldError errors={errors.contact} />
      </div>
      <button type="submit" className="btn-primary w-full" disabled={busy}>{busy ? "Saving..." : submitLabel}</button>
    </Form>
  );
}

export function ClientForm({ state, defaults, submitLabel }: { state: FormState; defaults?: { name?: string; taxRate?: string; paymentTermsDays?: number }; submitLabel: string }) {
  const busy = useNavigation().state !== "idle";
  const values = (state?.values ?? {}) as Record<string, string>;
  const errors = state?.fieldErrors ?? {};
  return (
    <Form method="post" className="space-y-4">
      {state?.message && !Object.keys(errors).length ? <FormError errors={[state.message]} /> : null}
      <div>
        <label className="label" htmlFor="name">Client Name *</label>
        <input id="name" name="name" className="input" required maxLength={200} defaultValue={values.name ?? defaults?.name ?? ""} />
        <FieldError errors={errors.name} />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div>
          <label className="label" htmlFor="taxRate">Tax Rate (%)</label>
          <input id="taxRate" name="taxRate" type="number" step="0.01" min="0" max="100" inputMode="decimal" className="input" defaultValue={values.taxRate ?? defaults?.taxRate ?? "0"} />
          <FieldError errors={errors.taxRate} />
        </div>
        <div>
          <label className="label" htmlFor="paymentTermsDays">Payment Terms (days)</label>
          <input id="paymentTermsDays" name="paymentTermsDays" type="number" step="1" min="0" max="3650" inputMode="numeric" className="input" defaultValue={values.paymentTermsDays ?? String(defaults?.paymentTermsDays ?? 30)} />
          <FieldError errors={errors.paymentTermsDays} />
        </div>
      </div>
      <button type="submit" className="btn-primary w-full" disabled={busy}>{busy ? "Saving..." : submitLabel}</button>
    </Form>
  );
}
