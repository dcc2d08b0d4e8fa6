import { ErrorList } from "./error-list";
import type { FieldMeta } from "./field";

/**
 * The six-digit code from an authenticator app (signing in, turning two-factor on). Keeps only
 * digits as they are typed or pasted; the phone offers its numeric keyboard and the code from
 * its messages.
 */
export function OneTimeCodeField({
  id,
  label,
  meta,
  value,
  onValueChange,
  className = "input font-mono tracking-widest",
}: {
  id: string;
  label: string;
  meta: FieldMeta;
  /** The digits so far: the form may wait for all six before it enables its button. */
  value: string;
  onValueChange: (code: string) => void;
  className?: string;
}) {
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
