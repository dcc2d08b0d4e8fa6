import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useIsPending } from "~/hooks/use-is-pending";
import { SubmitButton } from "./submit-button";

/**
 * The footer of a confirmation dialog: Cancel (a link back, so it works without JavaScript)
 * and the confirming submit button, which shows its progress. Put it inside the dialog's
 * `<Form method="post">`.
 */
export function ConfirmFooter({
  cancelTo,
  confirmLabel,
  pendingLabel,
  variant = "destructive",
  className = "flex justify-end gap-2",
  formAction,
}: {
  cancelTo: string;
  confirmLabel: ReactNode;
  pendingLabel?: ReactNode;
  variant?: "destructive" | "primary";
  className?: string;
  /** The action the form posts to, when not this route's own. */
  formAction?: string;
}) {
  const pending = useIsPending({ formAction });
  return (
    <div className={className}>
      {/* The dialog starts here when it has no field: Enter must not confirm at once. */}
      <Link to={cancelTo} preventScrollReset className="btn-outline" data-autofocus>
        Cancel
      </Link>
      <SubmitButton
        pending={pending}
        pendingLabel={pendingLabel}
        className={variant === "destructive" ? "btn-destructive" : "btn-primary"}
      >
        {confirmLabel}
      </SubmitButton>
    </div>
  );
}
