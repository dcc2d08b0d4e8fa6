import type { ReactNode } from "react";
import { InputField } from "./field";

/**
 * The current password a sensitive change asks for unless the user signed in within the last
 * minutes (`confirmRecentAuth`, app/models/reauth.server.ts), and again whenever the last
 * answer refused it.
 */
export function RecentPasswordField({
  meta,
  needed,
  label = "Current password",
  description,
  required,
}: {
  meta: Parameters<typeof InputField>[0]["meta"];
  /** The loader's answer: no sign-in within the window. */
  needed: boolean;
  label?: string;
  description?: ReactNode;
  required?: boolean;
}) {
  if (!needed && !meta.errors?.length) return null;
  return (
    <InputField
      meta={meta}
      label={label}
      type="password"
      autoComplete="current-password"
      description={description}
      required={required}
    />
  );
}
