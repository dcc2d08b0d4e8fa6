import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RecordPaymentDialog } from "~/components/invoices/record-payment-dialog";
import { loadRecordPayment, submitRecordPayment } from "~/services/payments/record-payment-dialog.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

export const meta: MetaFunction = () => [{ title: "Record Payment · Management" }];

// The Record Payment dialog over the invoice page: the same flow as /invoices/:id/pay.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadRecordPayment(request, params.id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return submitRecordPayment(request, params.id, (id) => `/invoices/${id}`);
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function InvoiceRecordPaymentRoute() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <RecordPaymentDialog {...data} lastResult={actionData?.result} closeTo={`/invoices/${data.invoice.id}`} />;
}
