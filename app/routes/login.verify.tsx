import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { Dialog, FieldError, FormError } from "~/components/dialog";
import { useHydrated } from "~/hooks/use-hydrated";
import { completeTotpLogin, getPendingTotpUser } from "~/models/totp.server";
import { safeRedirect } from "~/utils/redirect";
import { TOTP_CODE_MESSAGE } from "~/schemas/users";
import { requireAnonymous } from "~/utils/auth.server";
import { clientAddress } from "~/utils/client-address.server";
import { PRODUCT_NAME } from "~/utils/brand";
import { SIGNED_IN_TOAST, toastHeader } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: `Two-factor code · ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  if (!(await getPendingTotpUser(request))) throw redirect("/login?dialog=email");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  clientAddress(request, context);
  const form = await request.formData();
  const token = String(form.get("token") ?? "").replace(/\D/g, "");
  if (token.length !== 6) return data({ error: `Invalid code: ${TOTP_CODE_MESSAGE}`, fieldError: TOTP_CODE_MESSAGE }, { status: 400 });
  const result = await completeTotpLogin(request, token);
  if (!result.ok) {
    if (result.status === 401 && result.cookie) {
      throw redirect("/login?dialog=email", { headers: { "Set-Cookie": result.cookie } });
    }
    return data(
      { error: `Verification failed: ${result.message}`, fieldError: null },
      { status: result.status, headers: result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined },
    );
  }
  const headers = new Headers({ "Set-Cookie": result.cookie });
  if (result.user.mustChangePassword === 1) throw redirect("/change-password", { headers });
  headers.append("Set-Cookie", await toastHeader(SIGNED_IN_TOAST));
  throw redirect(safeRedirect(form.get("redirectTo")), { headers });
}

export default function VerifyCodeDialog() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  const [code, setCode] = useState("");
  const busy = navigation.state === "submitting";
  return (
    <Dialog title="Two-factor authentication" description="Enter the 6-digit code from your authenticator app." closeTo="/login" size="sm">
      <Form method="post" className="space-y-4">
        <FormError errors={actionData?.error ? [actionData.error] : null} />
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        <div>
          <label className="label" htmlFor="totp-code">
            Authentication code
          </label>
          <input
            id="totp-code"
            name="token"
            className="input text-center font-mono text-2xl tracking-[0.5em]"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
            aria-invalid={actionData?.fieldError ? true : undefined}
            aria-describedby={actionData?.fieldError ? "totp-code-error" : undefined}
            title="6 digits"
          />
          <FieldError errors={actionData?.fieldError ? [actionData.fieldError] : null} id="totp-code-error" />
        </div>
        <button type="submit" className="btn-primary w-full" disabled={busy || (hydrated && code.length !== 6)}>
          {busy ? "Verifying..." : "Verify"}
        </button>
        <p className="text-center text-sm">
          <Link to="/login?dialog=email" className="text-slate-600 underline dark:text-slate-300">
            Back to sign in
          </Link>
        </p>
      </Form>
    </Dialog>
  );
}
