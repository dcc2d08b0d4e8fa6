import { parseWithZod } from "@conform-to/zod/v4";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormErrors, SubmitButton, TextareaField } from "~/components/forms";
import { Breadcrumb, PageHeader } from "~/components/page-header";
import { TableScroll } from "~/components/table-scroll";
import { useIsPending } from "~/hooks/use-is-pending";
import { getReceipt } from "~/presenters/receipts.server";
import { can, requireCapability } from "~/rules/capabilities.server";
import { ReceiptReversalFormSchema } from "~/schemas/receipt";
import { reverseReceipt } from "~/services/receipts/reverse-receipt.server";
import { formatDate } from "~/utils/dates";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";

// One receipt (docs/decisions/1240): what it settled of each invoice, cash and withheld apart;
// an admin reverses it here (a reason, kept on each reversal).
export const meta: MetaFunction = () => [{ title: "Receipt · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const id = parseId(params.id);
  invariantResponse(id, "Receipt not found");
  const receipt = await getReceipt(user, id);
  invariantResponse(receipt, "Receipt not found");
  return { receipt, canReverse: can(user, "payment.reverse"), idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "payment.reverse");
  const id = parseId(params.id);
  invariantResponse(id, "Receipt not found");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ReceiptReversalFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: key, ...input } = Object.fromEntries(formData);
  const result = await reverseReceipt(user, id, input, new Date(), { idempotencyKey: keyOf(null, key) });
  if (!result.ok)
    return replyRefused(submission, result, {
      formMessage: `Failed to reverse receipt: ${result.message}`,
      always: true,
    });
  return redirectWithToast(`/receipts/${id}`, { title: "Receipt reversed" });
}

export default function ReceiptPage() {
  const { receipt, canReverse, idempotencyKey } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <Breadcrumb to="/receipts">Receipts</Breadcrumb>
      <PageHeader
        title={`Receipt #${receipt.id}`}
        subtitle={`${receipt.clientName} · ${formatDate(receipt.date)}${receipt.reference ? ` · ${receipt.reference}` : ""}`}
      />
      {receipt.reversed ? (
        <p className="card border-amber-300 p-3 font-semibold" role="status">
          Reversed: every invoice it settled is owed again.
        </p>
      ) : null}
      <section aria-label="Receipt totals" className="card p-4">
        <dl className="facts !mt-0 sm:grid-cols-3">
          <div>
            <dt>Received</dt>
            <dd className="tabular-nums">{formatNaira(receipt.amount)}</dd>
          </div>
          <div>
            <dt>Withheld by the client</dt>
            <dd className="tabular-nums">{formatNaira(receipt.withheld)}</dd>
          </div>
          <div>
            <dt>Settled</dt>
            <dd className="tabular-nums">{formatNaira(receipt.settled)}</dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="allocations" className="space-y-2">
        <h2 id="allocations" className="text-lg font-semibold">
          Invoices settled
        </h2>
        <TableScroll label="Invoices settled">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Invoice</th>
                <th scope="col" className="text-right">
                  Settled
                </th>
                <th scope="col" className="text-right">
                  Cash
                </th>
                <th scope="col" className="text-right">
                  WHT
                </th>
                <th scope="col" className="text-right">
                  VAT withheld
                </th>
              </tr>
            </thead>
            <tbody>
              {receipt.allocations.map((a) => (
                <tr key={a.invoiceId}>
                  <td>
                    <Link to={`/invoices/${a.invoiceId}`} className="underline">
                      #{a.invoiceNo}
                    </Link>
                  </td>
                  <td className="text-right tabular-nums">{formatNaira(a.amount)}</td>
                  <td className="text-right tabular-nums">{formatNaira(a.cash)}</td>
                  <td className="text-right tabular-nums">{formatNaira(a.wht)}</td>
                  <td className="text-right tabular-nums">{formatNaira(a.vatWithheld)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
      {canReverse && !receipt.reversed ? <ReverseReceiptForm idempotencyKey={idempotencyKey} /> : null}
    </div>
  );
}

function ReverseReceiptForm({ idempotencyKey }: { idempotencyKey: string }) {
  const lastResult = useActionData<typeof action>()?.result;
  const pending = useIsPending();
  const [form, fields] = useForm<{ reason: string; idempotencyKey: string }>({
    lastResult,
    defaultValue: { idempotencyKey },
  });
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  return (
    <Form method="post" {...getFormProps(form)} className="card space-y-3 p-4" aria-labelledby="reverse-heading">
      <h2 id="reverse-heading" className="font-semibold">
        Reverse this receipt
      </h2>
      <p className="text-sm text-slate-500">If it was recorded in error: its cash and withholding are taken back.</p>
      <input {...keyProps} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <TextareaField meta={fields.reason} label="Reason" rows={2} required />
      <SubmitButton pending={pending} pendingLabel="Reversing..." className="btn-destructive">
        Reverse Receipt
      </SubmitButton>
    </Form>
  );
}
