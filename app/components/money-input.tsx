import { useState, type InputHTMLAttributes } from "react";
import { formatMoneyWhileTyping } from "~/utils/money";

/**
 * A money field: with JavaScript it keeps digits and one dot, groups thousands with commas and
 * allows two decimals while typing; the server accepts the grouped text ("1,234.50") either
 * way, so the form also works without JavaScript.
 */
export function MoneyInput({ defaultValue, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "defaultValue" | "value" | "onChange"> & { defaultValue?: string | null }) {
  const [value, setValue] = useState(defaultValue ? formatMoneyWhileTyping(defaultValue) : "");
  return (
    <input
      {...props}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      pattern="[0-9,]*(\.[0-9]{0,2})?"
      value={value}
      onChange={(event) => setValue(formatMoneyWhileTyping(event.target.value))}
      className={props.className ?? "input"}
    />
  );
}
