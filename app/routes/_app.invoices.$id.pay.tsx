import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Dialog, FieldError, FormError } from "~/components/dialog";
import { MoneyInput } from "~/components/forms/money-field";
import { parseId } from "~/utils/params";
import { getInvoice } from "~/models/invoice.server";
import { recordPayment } from "~/models/payment.server";
import { requireRole } from "~/utils/auth.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { invariantResponse } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Record Payment · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const invoice = await getInvoice(id);
  invariantResponse(invoice, "Invoice not found");
  // One key per opened form: a double tap or a retry of the same submission replays it.
  return { invoice, today: todayIn(env().APP_TIME_ZONE), idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, ["manager", "admin"]);
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const form = Object.fromEntries(await request.formData());
  const { idempotencyKey: field, ...input } = form;
  const result = await recordPayment(user, { ...input, invoiceId: id }, new Date(), { idempotencyKey: keyOf(null, field) });
  if (!result.ok) return data({ message: result.message, fieldErrors: result.fieldErrors ?? {}, values: form }, { status: result.status });
  return redirectWithToast("/invoices", { title: "Payment recorded successfully" });
}

export default function RecordPaymentRoute() {
  const { invoice, today, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors = actionData?.fieldErrors ?? {};
  const values = (actionData?.values ?? {}) as Record<string, string>;
  return (
    <Dialog title="Record Payment" description={`Invoice #${invoice.invoiceNo} · ${invoice.clientName}`} closeTo="/invoices" size="sm">
      <Form method="post" className="space-y-4">
        <input type="hidden" name="idempotencyKey" value={typeof values.idempotencyKey === "string" ? values.idempotencyKey : idempotencyKey} />
        {actionData?.message ? <FormError errors={[`Failed to record payment: ${actionData.message}`]} /> : null}
        <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
          Remaining balance: <strong data-testid="balance">{formatNaira(invoice.balance)}</strong>
        </p>
        <div>
          <label className="label" htmlFor="amount">Amount (₦)</label>
          <MoneyInput id="amount" name="amount" required defaultValue={values.amount} />
          <FieldError errors={errors.amount} />
        </div>
        <div>
          <label className="label" htmlFor="paymentDate">Payment date</label>
          <input id="paymentDate" name="paymentDate" type="date" className="input" required max={today} defaultValue={values.paymentDate ?? today} />
          <FieldError errors={errors.paymentDate} />
        </div>
        <div>
          <label className="label" htmlFor="reference">Reference (optional)</label>
          <input id="reference" name="reference" className="input" maxLength={200} defaultValue={values.reference} />
          <FieldError errors={errors.reference} />
        </div>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Recording..." : "Record Payment"}
        </button>
      </Form>
    </Dialog>
  );
}
