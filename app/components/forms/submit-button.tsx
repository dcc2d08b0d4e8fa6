import type { ButtonHTMLAttributes, ReactNode } from "react";

/**
 * A form's submit button with its progress: while `pending` it is disabled (a double tap posts
 * once), marked aria-busy, and says `pendingLabel` ("Saving...").
 */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
  className = "btn-primary",
  disabled,
  ...props
}: {
  pending: boolean;
  pendingLabel?: ReactNode;
  children: ReactNode;
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "children">) {
  return (
    <button
      type="submit"
      className={className}
      disabled={pending || disabled}
      aria-busy={pending || undefined}
      {...props}
    >
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
