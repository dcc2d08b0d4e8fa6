import { useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { DirectoryForm } from "~/components/directory/directory-forms";
import { InputField } from "~/components/forms";
import type { FormConstraint } from "~/schemas/fields";

type TruckFields = { plate: string; transporter: string; phone: string; usualTareKg: string };

/** Add Truck and Edit Truck (schema: `TruckFormSchema`, docs/decisions/1200). */
export function TruckForm({
  lastResult,
  constraint,
  defaultValue,
  submitLabel,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  constraint: FormConstraint;
  defaultValue?: { plate: string; transporter: string | null; phone: string | null; usualTareKg: number | null };
  submitLabel: string;
}) {
  const [form, fields] = useForm<TruckFields>({
    lastResult,
    constraint,
    defaultValue: {
      plate: defaultValue?.plate ?? "",
      transporter: defaultValue?.transporter ?? "",
      phone: defaultValue?.phone ?? "",
      usualTareKg: defaultValue?.usualTareKg == null ? "" : String(defaultValue.usualTareKg),
    },
  });
  return (
    <DirectoryForm form={form} submitLabel={submitLabel}>
      <InputField
        meta={fields.plate}
        label="Plate *"
        description="Letters, digits, spaces or dashes, like LAG 123 XY"
        autoCapitalize="characters"
        autoComplete="off"
      />
      <InputField meta={fields.transporter} label="Transporter" />
      <div className="grid grid-cols-2 gap-3">
        <InputField meta={fields.phone} label="Phone" type="tel" />
        <InputField meta={fields.usualTareKg} label="Usual tare (kg)" type="number" inputMode="numeric" />
      </div>
    </DirectoryForm>
  );
}
