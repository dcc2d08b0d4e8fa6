import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { NoticeDialog } from "~/components/dialog";
import { InputField, MoneyField, TextareaField } from "~/components/forms";
import { ClientCreditDialog } from "~/components/payments/client-credit-dialog";
import { getInvoice } from "~/presenters/invoice-list.server";
import { refundClientCredit } from "~/services/payments/refund-credit.server";
import { requireCapability } from "~/rules/capabilities.server";
import { clientCreditOf } from "~/rules/invoices.server";
import { RefundFormSchema, refundFormConstraint } from "~/schemas/payment";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira, sub, toFixed } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

// Refund Credit (docs/decisions/0920): money paid back to
// the client out of the credit an invoice carries, admins only; over the invoice's page with
// JavaScript, a page of its own without, and back to that page.
export const meta: MetaFunction = () => [{ title: "Refund Credit · Invoices" }];

function invoiceIdOf(params: LoaderFunctionArgs["params"]) {
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.refund");
  const invoice = await getInvoice(user, invoiceIdOf(params));
  invariantResponse(invoice, "Invoice not found");
  return {
    invoice: { id: invoice.id, invoiceNo: invoice.invoiceNo, clientName: invoice.clientName },
    credit: clientCreditOf({ ...invoice, paymentStatus: invoice.storedStatus }),
    today: todayIn(env().APP_TIME_ZONE),
    // One key per opened form: a double tap or a retry records one refund.
    idempotencyKey: crypto.randomUUID(),
    constraint: refundFormConstraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "payment.refund");
  const id = invoiceIdOf(params);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: RefundFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const result = await refundClientCredit(user, id, input, new Date(), { idempotencyKey: keyOf(null, field) });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to record refund: ${result.message}` });
  return redirectWithToast(`/invoices/${id}`, {
    title: "Refund recorded",
    description: `${formatNaira(toFixed(sub("0", result.refund.amount)))} paid back to the client on Invoice #${result.invoiceNo}`,
  });
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function RefundCreditRoute() {
  const { invoice, credit, today, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<{
    amount: string;
    paymentDate: string;
    reference: string;
    reason: string;
    idempotencyKey: string;
  }>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: { amount: credit, paymentDate: today, idempotencyKey },
  });
  if (credit === "0.00") {
    return (
      <NoticeDialog title="Nothing to refund" closeTo={`/invoices/${invoice.id}`}>
        This invoice carries no client credit.
      </NoticeDialog>
    );
  }
  return (
    <ClientCreditDialog
      title="Refund Credit"
      invoice={invoice}
      credit={credit}
      form={form}
      keyField={fields.idempotencyKey}
      note="Money paid back to the client, up to the credit. The invoice keeps the record."
      submitLabel="Record Refund"
      pendingLabel="Recording..."
    >
      <MoneyField meta={fields.amount} label="Amount (₦)" />
      <InputField meta={fields.paymentDate} label="Refund date" type="date" />
      <InputField meta={fields.reference} label="Reference (optional)" />
      <TextareaField meta={fields.reason} label="Reason" rows={2} />
    </ClientCreditDialog>
  );
}
