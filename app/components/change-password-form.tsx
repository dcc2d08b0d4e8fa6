import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { FormErrors, InputField } from "./forms";
import { useHydrated } from "~/hooks/use-hydrated";
import { useIsPending } from "~/hooks/use-is-pending";

/**
 * The password change, the same in Settings and on the forced Change Your Password page
 * (spec section 5): submit stays disabled until current and new are filled (once JavaScript
 * runs; without it the server answers), messages sit under their fields, and while a new
 * attempt is on its way the previous attempt's messages are gone.
 */
export function ChangePasswordForm({
  lastResult,
  constraint,
  submitLabel,
  busyLabel,
  children,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  constraint: ReturnType<typeof getZodConstraint>;
  submitLabel: string;
  busyLabel: string;
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  const busy = useIsPending({ formMethod: "POST", state: "submitting" });
  const [form, fields] = useForm({
    lastResult,
    constraint,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
  const [filled, setFilled] = useState({ current: false, next: false });
  const track = (key: "current" | "next") => (event: React.FormEvent<HTMLInputElement>) => {
    // Read the value now: the event's target is gone by the time a state updater runs.
    const hasValue = event.currentTarget.value.length > 0;
    setFilled((f) => ({ ...f, [key]: hasValue }));
  };
  // While a new attempt is on its way, the last answer's messages are stale.
  const hideErrors = busy;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
      {children}
      <FormErrors errors={hideErrors ? null : form.errors} id={form.errorId} />
      <InputField
        meta={fields.currentPassword}
        hideErrors={hideErrors}
        label="Current password"
        type="password"
        autoComplete="current-password"
        onInput={track("current")}
      />
      <InputField
        meta={fields.newPassword}
        hideErrors={hideErrors}
        label="New password"
        description="8 to 72 characters; not a common password or your e-mail. A few unrelated words work well."
        type="password"
        autoComplete="new-password"
        onInput={track("next")}
      />
      <InputField
        meta={fields.confirmPassword}
        hideErrors={hideErrors}
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
      />
      <button
        type="submit"
        className="btn-primary w-full"
        disabled={busy || (hydrated && !(filled.current && filled.next))}
      >
        {busy ? busyLabel : submitLabel}
      </button>
    </Form>
  );
}
