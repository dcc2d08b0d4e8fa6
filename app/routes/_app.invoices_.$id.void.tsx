import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Dialog, NoticeDialog } from "~/components/dialog";
import { ConfirmFooter, FormErrors, TextareaField } from "~/components/forms";
import { isVoidable } from "~/models/invoice.server";
import { getInvoice } from "~/presenters/invoice-list.server";
import { voidInvoice } from "~/services/invoices/void-invoice.server";
import { requireCapability } from "~/rules/capabilities.server";
import { VoidInvoiceFormSchema, voidInvoiceFormConstraint } from "~/schemas/invoice";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Void Invoice · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.void");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const invoice = await getInvoice(user, id);
  invariantResponse(invoice, "Invoice not found");
  const voidable = await isVoidable(user, invoice);
  return {
    invoice: {
      id: invoice.id,
      invoiceNo: invoice.invoiceNo,
      clientName: invoice.clientName,
      amount: invoice.amount,
      // The model's rule: no payment (even one reversed since) and no credit note.
      voidable,
      isVoid: invoice.storedStatus === "void",
    },
    constraint: voidInvoiceFormConstraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "invoice.void");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: VoidInvoiceFormSchema, disableAutoCoercion: true });
  const result = await voidInvoice(user, id, Object.fromEntries(formData));
  if (!result.ok) return replyRefused(submission, result, { formMessage: `Failed to void invoice: ${result.message}` });
  return redirectWithToast(`/invoices/${id}`, {
    title: `Invoice #${result.invoice.invoiceNo} voided`,
    description: "Its deliveries are back to confirmed and can be invoiced again.",
  });
}

export default function VoidInvoiceRoute() {
  const { invoice, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<{ reason: string }>({
    lastResult: actionData?.result,
    constraint,
    shouldRevalidate: "onInput",
  });
  const back = `/invoices/${invoice.id}`;
  if (!invoice.voidable) {
    return (
      <NoticeDialog title="Cannot void this invoice" closeTo={back}>
        {invoice.isVoid
          ? "This invoice is already void."
          : "It has payments or credit notes. To reduce what the client owes, issue a credit note instead."}
      </NoticeDialog>
    );
  }
  return (
    <Dialog
      title={`Void Invoice #${invoice.invoiceNo}?`}
      description={`${invoice.clientName} · ${formatNaira(invoice.amount)}`}
      closeTo={back}
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={form.errors} id={form.errorId} />
        <p className="text-sm text-slate-600 dark:text-slate-300">
          The invoice stays on record, struck through, under its number; the number is never reused. Its deliveries go
          back to confirmed so they can be invoiced again.
        </p>
        <TextareaField meta={fields.reason} label="Reason" rows={3} />
        <ConfirmFooter cancelTo={back} confirmLabel="Void invoice" pendingLabel="Voiding..." />
      </Form>
    </Dialog>
  );
}
