import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { RecordPaymentDialog } from "~/components/invoices/record-payment-dialog";
import { loadRecordPayment, submitRecordPayment } from "~/services/payments/record-payment-dialog.server";
import { INVOICE_LIST_PARAMS, keptSearch, listUrlFrom } from "~/utils/list-search";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

export const meta: MetaFunction = () => [{ title: "Record Payment · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadRecordPayment(request, params.id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return submitRecordPayment(request, params.id, () => listUrlFrom("/invoices", request.url, INVOICE_LIST_PARAMS));
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function RecordPaymentRoute() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Back to the list's filters and page the dialog was opened on (decision 0200).
  const closeTo = `/invoices${keptSearch(useLocation().search, INVOICE_LIST_PARAMS)}`;
  return <RecordPaymentDialog {...data} lastResult={actionData?.result} closeTo={closeTo} />;
}
