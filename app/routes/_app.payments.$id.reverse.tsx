import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { ReversalDialog } from "~/components/forms/reversal-dialog";
import { paymentsListUrl } from "~/components/payment-reversal";
import { creditMoveText } from "~/utils/money-line-words";
import { getPaymentToReverse } from "~/presenters/payments.server";
import { reversePayment } from "~/services/payments/reverse-payment.server";
import { requireCapability } from "~/rules/capabilities.server";
import { PaymentReversalFormSchema, paymentReversalFormConstraint } from "~/schemas/payment";
import { formatDate } from "~/utils/dates";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira, isNegative, sub, toFixed } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

// Reverse Payment (docs/decisions/0920): takes back a payment recorded
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
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: PaymentReversalFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const result = await reversePayment(user, id, input, new Date(), { idempotencyKey: keyOf(null, field) });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to reverse payment: ${result.message}` });
  const { payment } = result;
  const moved = payment.creditMovedToInvoiceId !== null || payment.creditFromPaymentId !== null;
  return redirectWithToast(paymentsListUrl(new URL(request.url).searchParams), {
    title: moved ? "Credit move reversed" : payment.refund ? "Refund reversed" : "Payment reversed",
    description: moved
      ? `Both entries of the move taken back, on Invoice #${result.invoiceNo} and the other invoice`
      : payment.refund
        ? `${formatNaira(toFixed(sub("0", payment.amount)))} back as client credit on Invoice #${result.invoiceNo}`
        : `${formatNaira(payment.amount)} taken back from Invoice #${result.invoiceNo}`,
  });
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function ReversePaymentRoute() {
  const { payment, invoiceNo, clientName, reversedOn, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { search } = useLocation();
  const move = creditMoveText(payment);
  return (
    <ReversalDialog
      noun={move ? "Credit Move" : payment.refund ? "Refund" : "Payment"}
      description={`Invoice #${invoiceNo} · ${clientName}`}
      back={paymentsListUrl(new URLSearchParams(search))}
      backLabel="Back to the payments"
      entry={`#${payment.id}, ${formatDate(payment.paymentDate)}${payment.reference ? ` (${payment.reference})` : ""}`}
      // A refund or a credit moved out is stored negative; the dialog shows the amount itself.
      amount={isNegative(payment.amount) ? toFixed(sub("0", payment.amount)) : payment.amount}
      amountTestId="payment-amount"
      reversedOn={reversedOn}
      explanation={
        move
          ? `${move}. Both entries of the move are taken back by reversals dated today: the credit returns to the invoice it came from, and the other invoice owes again. This cannot be undone.`
          : payment.refund
            ? "The refund stays in the history. A reversal dated today takes it back, so the invoice carries the client credit again. This cannot be undone."
            : "The payment stays in the history. A reversal dated today takes its amount off the invoice, which is owed again. This cannot be undone."
      }
      idempotencyKey={idempotencyKey}
      constraint={constraint}
      lastResult={actionData?.result}
    />
  );
}
