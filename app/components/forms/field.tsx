// The one way a form shows its errors (docs/decisions/0011-form-errors.md): each message under
// its own field, the field outlined (aria-invalid) and pointing at its message
// (aria-describedby); a summary at the top only for errors that belong to no field. The pieces
// take Conform's field metadata, and equally any object of the same shape, so a form that is
// not on Conform yet can use them.
import { getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { ErrorList } from "./error-list";

/** What a field needs to present itself; Conform's `FieldMetadata` has all of it. */
export type FieldMeta = {
  id: string;
  name: string;
  errorId: string;
  descriptionId: string;
  errors?: string[] | null;
};

/** The attributes that tie a control to its label, hint and messages. */
export function fieldAria(meta: FieldMeta, { description = false }: { description?: boolean } = {}) {
  const invalid = Boolean(meta.errors?.length);
  const describedBy = [description ? meta.descriptionId : null, invalid ? meta.errorId : null]
    .filter(Boolean)
    .join(" ");
  return {
    id: meta.id,
    name: meta.name,
    "aria-invalid": invalid || undefined,
    "aria-describedby": describedBy || undefined,
  } as const;
}

/**
 * A labelled field around any control: the label, the control, an optional hint and the
 * field's messages. The control gets its attributes from `fieldAria(meta)` or Conform's
 * `getInputProps(meta)`.
 */
export function Field({
  meta,
  label,
  description,
  className,
  hideErrors = false,
  children,
}: {
  meta: FieldMeta;
  label: ReactNode;
  description?: ReactNode;
  className?: string;
  /** While a new submission is on its way the last one's messages are stale. */
  hideErrors?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label className="label" htmlFor={meta.id}>
        {label}
      </label>
      {children}
      {description ? (
        <p id={meta.descriptionId} className="page-subtitle mt-1">
          {description}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={hideErrors ? null : meta.errors} />
    </div>
  );
}

type ConformMeta = Parameters<typeof getInputProps>[0];

/** What every Conform field takes besides its control's own attributes. */
type ConformFieldProps = {
  meta: ConformMeta;
  label: ReactNode;
  description?: ReactNode;
  className?: string;
  /** While a new submission is on its way the last one's messages are stale. */
  hideErrors?: boolean;
};

/** Conform's aria options: the hint joins the description, and stale errors mark nothing. */
function aria({ meta, description, hideErrors = false }: ConformFieldProps) {
  const ariaDescribedBy = description ? meta.descriptionId : undefined;
  return hideErrors ? { ariaAttributes: false as const } : { ariaDescribedBy };
}

/** A field's own props apart from the ones meant for its control. */
function splitProps<Rest extends object>({
  meta,
  label,
  description,
  className,
  hideErrors,
  ...rest
}: ConformFieldProps & Rest): [ConformFieldProps, Omit<Rest, keyof ConformFieldProps>] {
  return [{ meta, label, description, className, hideErrors }, rest];
}

/** A text-like input on a Conform field. */
export function InputField({
  type = "text",
  ...props
}: ConformFieldProps & {
  type?: "text" | "email" | "password" | "number" | "date" | "tel" | "search" | "url";
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "form" | "defaultValue">) {
  const [field, rest] = splitProps(props);
  const { key, ...inputProps } = getInputProps(field.meta, { type, ...aria(field) });
  return (
    <Field {...field}>
      <input key={key} className="input" {...inputProps} {...rest} />
    </Field>
  );
}

export function SelectField({
  search,
  children,
  ...props
}: ConformFieldProps & {
  /** A search box between the label and the select (useChoiceSearch). */
  search?: ReactNode;
  children: ReactNode;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id" | "form" | "defaultValue">) {
  const [field, rest] = splitProps(props);
  const { key, ...selectProps } = getSelectProps(field.meta, aria(field));
  return (
    <Field {...field}>
      {search}
      <select key={key} className="input" {...selectProps} {...rest}>
        {children}
      </select>
    </Field>
  );
}

export function TextareaField(
  props: ConformFieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "form" | "defaultValue">,
) {
  const [field, rest] = splitProps(props);
  const { key, ...textareaProps } = getTextareaProps(field.meta, aria(field));
  return (
    <Field {...field}>
      <textarea key={key} className="input" {...textareaProps} {...rest} />
    </Field>
  );
}

/**
 * A checkbox on a Conform field: the box before its label, a hint and the field's messages under
 * them. It posts "on" when ticked and nothing when not (the route reads the absence).
 */
export function CheckboxField(
  props: ConformFieldProps &
    Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "form" | "defaultValue">,
) {
  const [field, rest] = splitProps(props);
  const { key, ...inputProps } = getInputProps(field.meta, { type: "checkbox", ...aria(field) });
  return (
    <div className={field.className}>
      <label className="flex items-start gap-2 text-sm font-medium" htmlFor={field.meta.id}>
        <input key={key} className="mt-0.5 h-4 w-4 shrink-0 accent-green-700" {...inputProps} {...rest} />
        <span>{field.label}</span>
      </label>
      {field.description ? (
        <p id={field.meta.descriptionId} className="page-subtitle mt-1 pl-6">
          {field.description}
        </p>
      ) : null}
      <ErrorList id={field.meta.errorId} errors={field.hideErrors ? null : field.meta.errors} />
    </div>
  );
}
