import type { InputHTMLAttributes } from "react";
import { formatMoneyWhileTyping } from "~/utils/money";

/**
 * A money field: with JavaScript it keeps digits and one dot, groups thousands with commas and
 * allows two decimals while typing; the server accepts the grouped text ("1,234.50") either
 * way, so the form also works without JavaScript. It stays uncontrolled, so whatever was typed
 * on a slow connection before the page's JavaScript arrived survives hydration.
 */
export function MoneyInput({ defaultValue, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "defaultValue" | "value" | "onChange" | "onInput"> & { defaultValue?: string | null }) {
  return (
    <input
      {...props}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      pattern="[0-9,]*(\.[0-9]{0,2})?"
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
