import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { FormErrors, SubmitButton, TextareaField } from "~/components/forms";
import { paymentsListUrl } from "~/components/payment-reversal";
import { useIsPending } from "~/hooks/use-is-pending";
import { getPaymentToReverse, reversePayment } from "~/models/payment.server";
import { requireCapability } from "~/rules/capabilities.server";
import { PaymentReversalFormSchema, paymentReversalFormConstraint } from "~/schemas/corrections";
import { formatDayMonthYear } from "~/utils/dates";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";

// Reverse Payment (docs/decisions/0920, addendum of 26 November): takes back a payment recorded
// in error with a reason, admins only; over the Payments list with JavaScript, a page of its own
// without. Back to the list as it was filtered and paged.
export const meta: MetaFunction = () => [{ title: "Reverse Payment · Payments" }];

function paymentIdOf(params: LoaderFunctionArgs["params"]) {
  const id = parseId(params.id);
  invariantResponse(id, "Payment not found");
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.reverse");
  const found = await getPaymentToReverse(user, paymentIdOf(params));
  invariantResponse(found, "Payment not found");
  return {
    ...found,
    // One key per opened form: a double tap or a retry records one reversal.
    idempotencyKey: crypto.randomUUID(),
    constraint: paymentReversalFormConstraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "payment.reverse");
  const id = paymentIdOf(params);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: PaymentReversalFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const result = await reversePayment(user, id, input, new Date(), { idempotencyKey: keyOf(null, field) });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to reverse payment: ${result.message}` });
  return redirectWithToast(paymentsListUrl(new URL(request.url).searchParams), {
    title: "Payment reversed",
    description: `${formatNaira(result.payment.amount)} taken back from Invoice #${result.invoiceNo}`,
  });
}

export default function ReversePaymentRoute() {
  const { payment, invoiceNo, clientName, reversedOn, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { search } = useLocation();
  const pending = useIsPending();
  const [form, fields] = useForm<{ reason: string; idempotencyKey: string }>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: { idempotencyKey },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  const back = paymentsListUrl(new URLSearchParams(search));
  return (
    <Dialog title="Reverse Payment" description={`Invoice #${invoiceNo} · ${clientName}`} closeTo={back} size="sm">
      <dl className="facts rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
        <div>
          <dt>Payment</dt>
          <dd>
            #{payment.id}, {formatDayMonthYear(payment.paymentDate)}
            {payment.reference ? ` (${payment.reference})` : ""}
          </dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd data-testid="payment-amount">{formatNaira(payment.amount)}</dd>
        </div>
      </dl>
      {reversedOn ? (
        <div className="mt-4 space-y-4">
          <p role="status" className="text-sm">
            This payment was already reversed on {formatDayMonthYear(reversedOn)}.
          </p>
          <Link to={back} className="btn-outline w-full" preventScrollReset>
            Back to the payments
          </Link>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          <input {...keyProps} />
          <FormErrors errors={form.errors} id={form.errorId} />
          <p className="text-sm">
            The payment stays in the history. A reversal dated today takes its amount off the invoice, which is owed
            again. This cannot be undone.
          </p>
          <TextareaField meta={fields.reason} label="Reason" rows={3} />
          <SubmitButton pending={pending} pendingLabel="Reversing..." className="btn-destructive w-full">
            Reverse Payment
          </SubmitButton>
        </Form>
      )}
    </Dialog>
  );
}
