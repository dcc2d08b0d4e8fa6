import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ReversalDialog } from "~/components/forms/reversal-dialog";
import { getCreditNoteToReverse } from "~/presenters/credit-note-list.server";
import { reverseCreditNote } from "~/services/invoices/reverse-credit-note.server";
import { requireCapability } from "~/rules/capabilities.server";
import { CreditNoteReversalFormSchema, creditNoteReversalFormConstraint } from "~/schemas/invoice";
import { formatDate } from "~/utils/dates";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

// Reverse Credit Note (docs/decisions/0920): takes back a
// credit note issued in error with a reason, admins only; over its invoice's page with
// JavaScript, a page of its own without, and back to that page.
export const meta: MetaFunction = () => [{ title: "Reverse Credit Note · Invoices" }];

function idsOf(params: LoaderFunctionArgs["params"]) {
  const invoiceId = parseId(params.id);
  const creditNoteId = parseId(params.creditNoteId);
  invariantResponse(invoiceId && creditNoteId, "Credit note not found");
  return { invoiceId, creditNoteId };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "credit_note.reverse");
  const { invoiceId, creditNoteId } = idsOf(params);
  const found = await getCreditNoteToReverse(user, creditNoteId, invoiceId);
  invariantResponse(found, "Credit note not found");
  return {
    ...found,
    // One key per opened form: a double tap or a retry records one reversal.
    idempotencyKey: crypto.randomUUID(),
    constraint: creditNoteReversalFormConstraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "credit_note.reverse");
  const { invoiceId, creditNoteId } = idsOf(params);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: CreditNoteReversalFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const result = await reverseCreditNote(user, creditNoteId, input, new Date(), {
    idempotencyKey: keyOf(null, field),
    invoiceId,
  });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to reverse credit note: ${result.message}` });
  return redirectWithToast(`/invoices/${invoiceId}`, {
    title: `Credit note ${result.creditNote.creditNoteNo} reversed`,
    description: `${formatNaira(result.creditNote.amount)} owed again on Invoice #${result.invoice.invoiceNo}`,
  });
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function ReverseCreditNoteRoute() {
  const { creditNote, invoiceId, invoiceNo, clientName, reversedOn, idempotencyKey, constraint } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <ReversalDialog
      noun="Credit Note"
      description={`Invoice #${invoiceNo} · ${clientName}`}
      back={`/invoices/${invoiceId}`}
      backLabel="Back to the invoice"
      entry={`${creditNote.creditNoteNo}, ${formatDate(creditNote.issueDate)}: ${creditNote.reason}`}
      amount={creditNote.amount}
      amountTestId="credit-note-amount"
      reversedOn={reversedOn}
      explanation="The credit note keeps its number and stays in the history. A reversal dated today takes its amount off what was credited, so the invoice is owed it again. This cannot be undone."
      idempotencyKey={idempotencyKey}
      constraint={constraint}
      lastResult={actionData?.result}
    />
  );
}
