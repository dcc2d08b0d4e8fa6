// New Delivery's loading ticket (docs/decisions/1220): an optional section, folded until opened
// or until it holds something, that works as a plain form without JavaScript. Its truck is the
// delivery's Truck No.; with JavaScript the net shows as gross and tare are typed.
import type { FormEvent } from "react";
import { Field, fieldAria, type FieldMeta } from "~/components/forms";
import { LOADING_TICKET, TICKET_PHOTO } from "~/utils/outbox-protocol";

const BOXES = [
  ["ticketNo", "Ticket No.", "text"],
  ["grossKg", "Gross (kg)", "number"],
  ["tareKg", "Tare (kg)", "number"],
  ["weighedAt", "Weighed at", "datetime-local"],
] as const;

/** Gross − tare as the person types, exact in whole kilograms; blank until both are. */
function showNet(event: FormEvent<HTMLElement>) {
  const box = event.currentTarget;
  const [gross, tare] = ["gross", "tare"].map((n) => box.querySelector<HTMLInputElement>(`[name$=${n}Kg]`)!.value);
  const net = Number(gross) - Number(tare);
  box.querySelector("output")!.value =
    /^\d+$/.test(gross) && /^\d+$/.test(tare) && net > 0 ? `Net ${net.toLocaleString("en-US")} kg` : "";
}

export function LoadingTicketFields({
  meta,
  constraint,
  text,
}: {
  meta: (name: string) => FieldMeta;
  constraint: (name: string) => object;
  text: (name: string) => string | undefined;
}) {
  const names = [...BOXES.map(([n]) => `${LOADING_TICKET}.${n}`), TICKET_PHOTO];
  const photo = meta(TICKET_PHOTO);
  return (
    <details
      open={names.some((n) => text(n) || meta(n).errors?.length)}
      onInput={showNet}
      className="rounded-md border p-3"
    >
      <summary className="cursor-pointer font-medium">Loading ticket</summary>
      <p className="page-subtitle mt-1">Its truck is the Truck No. above. Leave Tons blank to take its net.</p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        {BOXES.map(([n, label, type], i) => {
          const m = meta(names[i]);
          return (
            <Field key={n} meta={m} label={label}>
              <input
                {...fieldAria(m)}
                type={type}
                inputMode={type === "number" ? "numeric" : undefined}
                className="input"
                {...constraint(m.name)}
                defaultValue={text(m.name)}
              />
            </Field>
          );
        })}
        <Field meta={photo} label="Photo">
          <input
            {...fieldAria(photo)}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            capture="environment"
            className="input"
          />
        </Field>
      </div>
      <output className="mt-2 block font-medium" />
    </details>
  );
}
