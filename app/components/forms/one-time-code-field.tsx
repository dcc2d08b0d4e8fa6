import { ErrorList } from "./error-list";
import type { FieldMeta } from "./field";

/**
 * The six-digit code from an authenticator app (signing in, turning two-factor on). Keeps only
 * digits as they are typed or pasted; the phone offers its numeric keyboard and the code from
 * its messages.
 */
export function OneTimeCodeField({
  label,
  meta,
  code: [value, onValueChange],
  className = "input font-mono tracking-widest",
}: {
  label: string;
  meta: FieldMeta;
  /** The digits so far and their setter: the form may wait for all six before it enables its button. */
  code: [string, (code: string) => void];
  className?: string;
}) {
  const id = meta.id;
  const invalid = Boolean(meta.errors?.length);
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={meta.name}
        className={className}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        title="6 digits"
        value={value}
        onChange={(e) => onValueChange(e.target.value.replace(/\D/g, "").slice(0, 6))}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? meta.errorId : undefined}
      />
      <ErrorList errors={meta.errors} id={meta.errorId} />
    </div>
  );
}
