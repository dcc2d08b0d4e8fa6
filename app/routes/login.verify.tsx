import { getFormProps, useForm, type FormMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { Dialog } from "~/components/dialog";
import { FormErrors, InputField, OneTimeCodeField, SubmitButton } from "~/components/forms";
import { useHydrated } from "~/hooks/use-hydrated";
import { useIsPending } from "~/hooks/use-is-pending";
import { completeRecoveryCodeLogin, completeTotpLogin, getPendingTotpUser } from "~/models/totp.server";
import { safeRedirect } from "~/utils/redirect";
import { RecoveryCodeFormSchema, TotpCodeFormSchema } from "~/schemas/forms";
import { requireAnonymous } from "~/utils/auth.server";
import { clientAddress } from "~/utils/client-address.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { PRODUCT_NAME } from "~/utils/brand";
import { SIGNED_IN_TOAST, toastHeader } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: `Two-factor code · ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  if (!(await getPendingTotpUser(request))) throw redirect("/login?dialog=email");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  clientAddress(request, context);
  const form = await readForm(request);
  // A recovery code instead of an authenticator code (decision 0401): the form of ?method=recovery.
  const recovery = form.has("recoveryCode");
  const submission = recovery
    ? parseWithZod(form, { schema: RecoveryCodeFormSchema, disableAutoCoercion: true })
    : parseWithZod(form, { schema: TotpCodeFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success")
    return replyInvalid(submission, { formMessage: (first) => `Invalid code: ${first}` });
  const result =
    "recoveryCode" in submission.value
      ? await completeRecoveryCodeLogin(request, submission.value.recoveryCode)
      : await completeTotpLogin(request, submission.value.token);
  if (!result.ok) {
    if (result.status === 401 && result.cookie) {
      throw redirect("/login?dialog=email", { headers: { "Set-Cookie": result.cookie } });
    }
    return replyRefused(submission, result, { formMessage: `Verification failed: ${result.message}` });
  }
  const headers = new Headers({ "Set-Cookie": result.cookie });
  if (result.user.mustChangePassword === 1) throw redirect("/change-password", { headers });
  headers.append("Set-Cookie", await toastHeader(SIGNED_IN_TOAST));
  throw redirect(safeRedirect(form.get("redirectTo")), { headers });
}

export default function VerifyCodeDialog() {
  const [params] = useSearchParams();
  return params.get("method") === "recovery" ? <RecoveryCodeForm /> : <AuthenticatorCodeForm />;
}

/** The two ways to finish signing in: each dialog's words and the link to the other way. */
const WAYS = {
  totp: {
    title: "Two-factor authentication",
    description: "Enter the 6-digit code from your authenticator app.",
    other: { method: "recovery", label: "Use a recovery code" },
  },
  recovery: {
    title: "Use a recovery code",
    description: "Enter one of the recovery codes you saved when you turned on two-factor. Each code works once.",
    other: { method: null, label: "Use an authenticator code" },
  },
} as const;

/** The form of either way, as the last answer left it, and whether it is being posted. */
function useVerifyForm(id: keyof typeof WAYS) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({ id, lastResult: actionData?.result });
  return { form, fields, busy: useIsPending({ state: "submitting" }) };
}

/**
 * Either way's dialog: its form keeps ?redirectTo, and below the form are the other way to
 * finish signing in (keeping ?redirectTo too) and the way back to the start.
 */
function VerifyDialog({ way, form, children }: { way: keyof typeof WAYS; form: FormMetadata; children: ReactNode }) {
  const [params] = useSearchParams();
  const { title, description, other } = WAYS[way];
  const otherQuery = new URLSearchParams();
  const redirectTo = params.get("redirectTo");
  if (redirectTo) otherQuery.set("redirectTo", redirectTo);
  if (other.method) otherQuery.set("method", other.method);
  const query = otherQuery.toString();
  return (
    <Dialog title={title} description={description} closeTo="/login" size="sm">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="redirectTo" value={redirectTo ?? ""} />
        {children}
        <p className="flex flex-wrap justify-between gap-2 text-center text-sm">
          <Link
            to={`/login/verify${query ? `?${query}` : ""}`}
            className="text-slate-600 underline dark:text-slate-300"
          >
            {other.label}
          </Link>
          <Link to="/login?dialog=email" className="text-slate-600 underline dark:text-slate-300">
            Back to sign in
          </Link>
        </p>
      </Form>
    </Dialog>
  );
}

function AuthenticatorCodeForm() {
  const hydrated = useHydrated();
  const { form, fields, busy } = useVerifyForm("totp");
  const [code, setCode] = useState("");
  return (
    <VerifyDialog way="totp" form={form}>
      <OneTimeCodeField
        label="Authentication code"
        meta={fields.token}
        code={[code, setCode]}
        className="input text-center font-mono text-2xl tracking-[0.5em]"
      />
      <SubmitButton
        pending={busy}
        pendingLabel="Verifying..."
        className="btn-primary w-full"
        disabled={hydrated && code.length !== 6}
      >
        Verify
      </SubmitButton>
    </VerifyDialog>
  );
}

function RecoveryCodeForm() {
  const { form, fields, busy } = useVerifyForm("recovery");
  return (
    <VerifyDialog way="recovery" form={form}>
      <InputField
        meta={fields.recoveryCode}
        label="Recovery code"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        className="font-mono"
      />
      <SubmitButton pending={busy} pendingLabel="Verifying..." className="btn-primary w-full">
        Verify
      </SubmitButton>
    </VerifyDialog>
  );
}
