// HTML written as a string, for the one list whose rows React would draw too slowly: the Invoices
// page's cards (decision 0507).
// `html` is a tagged template that escapes every interpolated value with html-escaper (& < > " '
// become entities, in one pass): text from the database can never become markup or leave an
// attribute. A value that is already HTML made by this tag goes in as `Html` and is kept as is;
// there is no other way to put raw markup into the result.
import { escape } from "html-escaper";

/** HTML made by `html`: safe to join into another `html` template as it is. */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

type Value = string | number | boolean | null | undefined | Html | readonly Value[];

function part(value: Value): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(part).join("");
  // Absent values and `false` (a condition that did not hold) write nothing.
  if (value === null || value === undefined || value === false) return "";
  return escape(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return new Html(out);
}
