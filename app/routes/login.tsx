import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, Outlet, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { CountUp } from "~/components/count-up";
import { Dialog } from "~/components/dialog";
import { FormErrors, InputField } from "~/components/forms";
import { ChartIcon, FileIcon, KeyIcon, ShieldIcon, TruckIcon } from "~/components/icons";
import { PasskeySignIn } from "~/components/passkey-sign-in";
import { LoginSchema } from "~/schemas/auth";
import { safeRedirect } from "~/utils/redirect";
import { attemptPasswordLogin, authenticator } from "~/models/sign-in.server";
import { requireAnonymous, startSession } from "~/utils/auth.server";
import { clientAddress } from "~/utils/client-address.server";
import { COMPANY_LINE, PRODUCT_NAME } from "~/utils/brand";
import { SIGNED_IN_TOAST, toastHeader } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";
import { retryAfterHeader } from "~/utils/result.server";

export const meta: MetaFunction = () => [{ title: `Sign in · ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return { constraint: getZodConstraint(LoginSchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const address = clientAddress(request, context);
  // remix-auth reads the body itself: validate a clone first (STACK.md).
  const formData = await readForm(request.clone());
  const submission = parseWithZod(formData, { schema: LoginSchema });
  // Each empty field says so under itself; no summary repeats it.
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { email, password } = await authenticator.authenticate("form", request);
  const result = await attemptPasswordLogin(email, password, address);
  if (result.kind === "error") {
    return data(
      { result: submission.reply({ formErrors: [`Login failed: ${result.message}`], hideFields: ["password"] }) },
      { status: result.status, headers: retryAfterHeader(result) },
    );
  }
  const { cookie } = await startSession(request, result);
  const headers = new Headers({ "Set-Cookie": cookie });
  if (result.kind === "totp-required") {
    const to = submission.value.redirectTo ? `?redirectTo=${encodeURIComponent(submission.value.redirectTo)}` : "";
    throw redirect(`/login/verify${to}`, { headers });
  }
  if (result.user.mustChangePassword === 1) throw redirect("/change-password", { headers });
  headers.append("Set-Cookie", await toastHeader(SIGNED_IN_TOAST));
  throw redirect(safeRedirect(submission.value.redirectTo), { headers });
}

const FEATURES = [
  { title: "Delivery Tracking", text: "Record every ton brought in from the yards, from any phone.", icon: TruckIcon },
  { title: "Profit Analysis", text: "See margins per delivery and across the month.", icon: ChartIcon },
  { title: "Invoice Management", text: "Turn confirmed deliveries into invoices and follow payments.", icon: FileIcon },
  { title: "Role-Based Access", text: "Staff, managers and admins each see what is theirs.", icon: ShieldIcon },
];

const COUNTERS = [
  { value: 10000, suffix: "+", label: "Deliveries tracked" },
  { value: 98, suffix: "%", label: "Data accuracy" },
  { value: 50, suffix: "+", label: "Active users" },
];

export default function LoginPage() {
  const { constraint } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const dialog = params.get("dialog");
  const redirectTo = params.get("redirectTo") ?? "";
  const keep = redirectTo ? `&redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <div>
            <p className="text-lg font-bold">{PRODUCT_NAME}</p>
            <p className="text-xs text-slate-600 dark:text-slate-400">{COMPANY_LINE}</p>
          </div>
          <div className="flex gap-2">
            <Link to={`?dialog=passkey${keep}`} className="btn-outline">
              <KeyIcon width={16} height={16} /> Passkey
            </Link>
            <Link to={`?dialog=email${keep}`} className="btn-primary">
              Sign in
            </Link>
          </div>
        </div>
      </header>

      <main className="flex-1">
        <section className="mx-auto max-w-6xl px-4 py-16 text-center">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{PRODUCT_NAME}</h1>
          <p className="mt-2 text-lg text-slate-600 dark:text-slate-300">{COMPANY_LINE}</p>
          <p className="mx-auto mt-4 max-w-2xl text-slate-600 dark:text-slate-400">
            Secure web-based data management for tracking deliveries, invoices and payments.
          </p>
          <Link to={`?dialog=email${keep}`} className="btn-primary mt-8 px-6 py-3 text-base">
            Get Started
          </Link>
        </section>

        <section className="mx-auto grid max-w-6xl gap-4 px-4 pb-12 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ title, text, icon: Icon }) => (
            <div key={title} className="card p-5">
              <Icon className="text-green-700 dark:text-green-400" />
              <h2 className="mt-3 font-semibold">{title}</h2>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{text}</p>
            </div>
          ))}
        </section>

        <section className="mx-auto grid max-w-4xl grid-cols-3 gap-4 px-4 pb-16 text-center">
          {COUNTERS.map((c) => (
            <div key={c.label}>
              <p className="text-3xl font-bold text-green-700 dark:text-green-400">
                <CountUp name={`landing-${c.label}`} value={c.value} durationMs={2000} />
                {c.suffix}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-400">{c.label}</p>
            </div>
          ))}
        </section>
      </main>

      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
        © {new Date().getFullYear()} {COMPANY_LINE}. All rights reserved.
      </footer>

      {dialog === "email" ? <EmailDialog constraint={constraint} redirectTo={redirectTo} /> : null}
      {dialog === "passkey" ? (
        <Dialog
          title="Sign in with a passkey"
          description="Use the passkey saved on this device."
          closeTo={redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "."}
        >
          <PasskeySignIn />
        </Dialog>
      ) : null}
      <Outlet />
    </div>
  );
}

function EmailDialog({
  constraint,
  redirectTo,
}: {
  constraint: ReturnType<typeof getZodConstraint>;
  redirectTo: string;
}) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint,
  });
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <Dialog title="Sign in" description="Sign in with your email and password." closeTo=".">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={busy ? null : form.errors} id={form.errorId} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <InputField meta={fields.email} label="Email" type="email" autoComplete="username" hideErrors={busy} />
        <InputField
          meta={fields.password}
          label="Password"
          type="password"
          autoComplete="current-password"
          hideErrors={busy}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Signing in..." : "Sign in"}
        </button>
      </Form>
    </Dialog>
  );
}
