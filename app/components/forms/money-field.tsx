import { getInputProps } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { Field } from "./field";
import { formatMoneyWhileTyping } from "~/utils/money";

/**
 * What a money field takes, said under it and in its `title`: without JavaScript the browser's
 * own pattern message ("Please match the requested format") adds the title, and says nothing
 * else (decision 0011).
 */
export const MONEY_HINT = "Amount in naira, up to 2 decimals";

/**
 * A money field: with JavaScript it keeps digits and one dot, groups thousands with commas and
 * allows two decimals while typing; the server accepts the grouped text ("1,234.50") either
 * way, so the form also works without JavaScript. It stays uncontrolled, so whatever was typed
 * on a slow connection before the page's JavaScript arrived survives hydration.
 */
export function MoneyInput({
  defaultValue,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "defaultValue" | "value" | "onChange" | "onInput"> & {
  defaultValue?: string | null;
}) {
  return (
    <input
      {...props}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      pattern="[0-9,]*(\.[0-9]{0,2})?"
      title={MONEY_HINT}
      defaultValue={defaultValue ? formatMoneyWhileTyping(defaultValue) : ""}
      onInput={(event) => {
        const input = event.currentTarget;
        const formatted = formatMoneyWhileTyping(input.value);
        if (formatted !== input.value) input.value = formatted;
      }}
      className={props.className ?? "input"}
    />
  );
}

/**
 * A labelled money field on a Conform field: the label, the `MoneyInput`, its hint (what a money
 * field takes, unless given another) and the field's messages, tied together with aria-invalid and aria-describedby.
 */
export function MoneyField({
  meta,
  label,
  description = MONEY_HINT,
  className,
  hideErrors = false,
  ...props
}: {
  meta: Parameters<typeof getInputProps>[0];
  label: ReactNode;
  description?: ReactNode;
  className?: string;
  /** While a new submission is on its way the last one's messages are stale. */
  hideErrors?: boolean;
} & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "type" | "name" | "id" | "form" | "defaultValue" | "value" | "onChange" | "onInput"
>) {
  const {
    key,
    type: _type,
    defaultValue,
    ...inputProps
  } = getInputProps(meta, {
    type: "text",
    ...(hideErrors ? { ariaAttributes: false as const } : { ariaDescribedBy: meta.descriptionId }),
  });
  return (
    <Field meta={meta} label={label} description={description} className={className} hideErrors={hideErrors}>
      <MoneyInput
        key={key}
        {...inputProps}
        {...props}
        defaultValue={typeof defaultValue === "string" ? defaultValue : null}
      />
    </Field>
  );
}
