// A field's messages and the form's summary (docs/decisions/0011-form-errors.md).

/** Messages of one field (or of the form), one per line; nothing when there are none. */
export function ErrorList({
  id,
  errors,
  className = "",
}: {
  id?: string;
  errors?: string[] | null;
  className?: string;
}) {
  const list = (errors ?? []).filter(Boolean);
  if (!list.length) return null;
  return (
    <ul id={id} className={`field-error space-y-0.5 ${className}`}>
      {[...new Set(list)].map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/** The summary at the top of a form: only for errors that belong to no field. */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  const list = (errors ?? []).filter(Boolean);
  if (!list.length) return null;
  return (
    <div
      id={id}
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-300"
    >
      {[...new Set(list)].map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
