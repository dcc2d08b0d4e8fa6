import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { FormErrors, InputField } from "./forms";
import { useHydrated } from "~/hooks/use-hydrated";
import { useIsPending } from "~/hooks/use-is-pending";

/** The form's three fields; typing in the first two tells the submit button they are filled. */
const PASSWORD_FIELDS: {
  name: "currentPassword" | "newPassword" | "confirmPassword";
  label: string;
  description?: string;
  autoComplete: string;
  filledKey?: "current" | "next";
}[] = [
  { name: "currentPassword", label: "Current password", autoComplete: "current-password", filledKey: "current" },
  {
    name: "newPassword",
    label: "New password",
    description: "8 to 72 characters; not a common password or your e-mail. A few unrelated words work well.",
    autoComplete: "new-password",
    filledKey: "next",
  },
  { name: "confirmPassword", label: "Confirm new password", autoComplete: "new-password" },
];

/**
 * The password change, the same in Settings and on the forced Change Your Password page
 * (spec section 5): submit stays disabled until current and new are filled (once JavaScript
 * runs; without it the server answers), messages sit under their fields, and while a new
 * attempt is on its way the previous attempt's messages are gone.
 */
export function ChangePasswordForm({
  lastResult,
  constraint,
  children,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  constraint: ReturnType<typeof getZodConstraint>;
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  const busy = useIsPending({ formMethod: "POST", state: "submitting" });
  const [form, fields] = useForm({
    lastResult,
    constraint,
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
      {PASSWORD_FIELDS.map(({ name, filledKey, ...field }) => (
        <InputField
          key={name}
          meta={fields[name]}
          hideErrors={hideErrors}
          type="password"
          onInput={filledKey ? track(filledKey) : undefined}
          {...field}
        />
      ))}
      <button
        type="submit"
        className="btn-primary w-full"
        disabled={busy || (hydrated && !(filled.current && filled.next))}
      >
        {busy ? "Changing..." : "Change Password"}
      </button>
    </Form>
  );
}
