import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { FormErrors, InputField, MoneyField, SubmitButton } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { parseId } from "~/utils/params";
import { getInvoice } from "~/models/invoice.server";
import { recordPayment } from "~/models/payment.server";
import { RecordPaymentFormSchema, recordPaymentFormConstraint } from "~/schemas/payment";
import { requireCapability } from "~/rules/capabilities.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Record Payment · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const invoice = await getInvoice(user, id);
  invariantResponse(invoice, "Invoice not found");
  // One key per opened form: a double tap or a retry of the same submission replays it.
  const today = todayIn(env().APP_TIME_ZONE);
  return { invoice, today, idempotencyKey: crypto.randomUUID(), constraint: recordPaymentFormConstraint(today) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const formData = await request.formData();
  // The model has the last word on every field (see RecordPaymentFormSchema).
  const submission = parseWithZod(formData, { schema: RecordPaymentFormSchema, disableAutoCoercion: true });
  const form = Object.fromEntries(formData);
  const { idempotencyKey: field, ...input } = form;
  const result = await recordPayment(user, { ...input, invoiceId: id }, new Date(), {
    idempotencyKey: keyOf(null, field),
  });
  if (!result.ok)
    return replyRefused(submission, result, {
      formMessage: `Failed to record payment: ${result.message}`,
      always: true,
    });
  return redirectWithToast("/invoices", { title: "Payment recorded successfully" });
}

export default function RecordPaymentRoute() {
  const { invoice, today, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm<{ amount: string; paymentDate: string; reference: string; idempotencyKey: string }>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: { paymentDate: today, idempotencyKey },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
  // The same key on a retry of this submission, so a double tap records one payment.
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  return (
    <Dialog
      title="Record Payment"
      description={`Invoice #${invoice.invoiceNo} · ${invoice.clientName}`}
      closeTo="/invoices"
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input {...keyProps} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
          Remaining balance: <strong data-testid="balance">{formatNaira(invoice.balance)}</strong>
        </p>
        <MoneyField meta={fields.amount} label="Amount (₦)" />
        <InputField meta={fields.paymentDate} label="Payment date" type="date" />
        <InputField meta={fields.reference} label="Reference (optional)" />
        <SubmitButton pending={pending} pendingLabel="Recording..." className="btn-primary w-full">
          Record Payment
        </SubmitButton>
      </Form>
    </Dialog>
  );
}
