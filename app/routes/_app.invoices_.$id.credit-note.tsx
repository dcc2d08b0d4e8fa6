import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Dialog, NoticeDialog } from "~/components/dialog";
import { FormErrors, MoneyField, SubmitButton, TextareaField } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { creditableOf } from "~/models/credit-note.server";
import { createCreditNote } from "~/services/invoices/issue-credit-note.server";
import { getInvoice } from "~/presenters/invoice-list.server";
import { requireCapability } from "~/rules/capabilities.server";
import { CreditNoteFormSchema, creditNoteFormConstraint } from "~/schemas/invoice";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { compare, formatNaira, isNegative, sub, toFixed } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

export const meta: MetaFunction = () => [{ title: "Credit Note · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "credit_note.create");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const invoice = await getInvoice(user, id);
  invariantResponse(invoice, "Invoice not found");
  return {
    invoice: {
      id: invoice.id,
      invoiceNo: invoice.invoiceNo,
      clientName: invoice.clientName,
      balance: invoice.balance,
      isVoid: invoice.storedStatus === "void",
    },
    creditable: creditableOf(invoice),
    // One key per opened form: a double tap or a retry issues one credit note.
    idempotencyKey: crypto.randomUUID(),
    constraint: creditNoteFormConstraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "credit_note.create");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: CreditNoteFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const result = await createCreditNote(user, id, input, new Date(), { idempotencyKey: keyOf(null, field) });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to issue credit note: ${result.message}` });
  return redirectWithToast(`/invoices/${id}`, {
    title: `Credit note ${result.creditNote.creditNoteNo} issued`,
    description: `${formatNaira(result.creditNote.amount)} credited to Invoice #${result.invoice.invoiceNo}`,
  });
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function CreditNoteRoute() {
  const { invoice, creditable, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm<{ amount: string; reason: string; idempotencyKey: string }>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: { idempotencyKey },
  });
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  const back = `/invoices/${invoice.id}`;
  if (invoice.isVoid || creditable === "0.00") {
    return (
      <NoticeDialog title="Cannot issue a credit note" closeTo={back}>
        {invoice.isVoid ? "This invoice is void." : "This invoice is already fully credited."}
      </NoticeDialog>
    );
  }
  return (
    <Dialog
      title="Credit Note"
      description={`Invoice #${invoice.invoiceNo} · ${invoice.clientName}`}
      closeTo={back}
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input {...keyProps} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
          {isNegative(invoice.balance) ? (
            <>
              Client credit: <strong>{formatNaira(toFixed(sub("0", invoice.balance)))}</strong>
            </>
          ) : (
            <>
              Balance: <strong>{formatNaira(invoice.balance)}</strong>
            </>
          )}
          <br />
          Can credit up to <strong data-testid="creditable">{formatNaira(creditable)}</strong>
          {creditLimitNote(invoice.balance, creditable)}
        </p>
        <MoneyField meta={fields.amount} label="Amount (₦)" />
        <TextareaField meta={fields.reason} label="Reason" rows={3} />
        <SubmitButton pending={pending} pendingLabel="Issuing..." className="btn-primary w-full">
          Issue Credit Note
        </SubmitButton>
      </Form>
    </Dialog>
  );
}

/**
 * What the most that can be credited means for this invoice, in one sentence: the whole
 * balance; or the balance and then a credit owed back to the client (a paid part); or all of it
 * a credit owed back (nothing left to pay).
 */
function creditLimitNote(balance: string, creditable: string) {
  if (compare(balance, "0") <= 0)
    return ": nothing is left to pay, so all of it is owed back to the client as a credit.";
  if (compare(creditable, balance) <= 0) return ", the whole balance.";
  return `: the first ${formatNaira(balance)} clears the balance, and the rest is owed back to the client as a credit.`;
}
