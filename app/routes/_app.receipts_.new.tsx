import { parseWithZod } from "@conform-to/zod/v4";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList, FormErrors, InputField, MoneyField, SubmitButton } from "~/components/forms";
import { Breadcrumb, PageHeader } from "~/components/page-header";
import { useIsPending } from "~/hooks/use-is-pending";
import { getClient, listClientChoices } from "~/models/client.server";
import { requireCapability } from "~/rules/capabilities.server";
import { owedInvoicesOf } from "~/presenters/receipts.server";
import { RecordReceiptFormSchema, recordReceiptFormConstraint } from "~/schemas/receipt";
import { recordReceipt } from "~/services/receipts/record-receipt.server";
import { formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";

// Record Receipt (docs/decisions/1240): a client is chosen first (a GET, so it works without
// JavaScript), then the transfer and, if wanted, what it settles of each invoice still owed.
export const meta: MetaFunction = () => [{ title: "Record Receipt · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const clientId = parseId(new URL(request.url).searchParams.get("clientId"));
  const today = todayIn(env().APP_TIME_ZONE);
  const clients = await listClientChoices();
  const client = clientId === null ? null : await getClient(clientId);
  return {
    today,
    clients,
    client: client && { id: client.id, name: client.name, whtRate: client.whtRate, withholdsVat: client.withholdsVat },
    invoices: client ? await owedInvoicesOf(user, client) : [],
    idempotencyKey: crypto.randomUUID(),
    constraint: recordReceiptFormConstraint(today),
  };
}

/** The form's allocation rows (`allocations[3].amount`) as the write reads them. */
function allocationsOf(formData: FormData) {
  const rows = new Map<number, Record<string, string>>();
  for (const [name, value] of formData) {
    const m = /^allocations\[(\d{1,3})\]\.(invoiceId|amount)$/.exec(name);
    if (!m || typeof value !== "string") continue;
    const row = rows.get(Number(m[1])) ?? {};
    row[m[2]] = value;
    rows.set(Number(m[1]), row);
  }
  return [...rows.values()].filter((r) => r.amount?.trim());
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: RecordReceiptFormSchema, disableAutoCoercion: true });
  const field = (name: string) => (typeof formData.get(name) === "string" ? (formData.get(name) as string) : "");
  const allocations = allocationsOf(formData);
  const result = await recordReceipt(
    user,
    {
      clientId: field("clientId"),
      date: field("date"),
      amount: field("amount"),
      reference: field("reference"),
      allocations: allocations.length ? allocations : undefined,
    },
    new Date(),
    { idempotencyKey: keyOf(null, field("idempotencyKey")) },
  );
  if (!result.ok)
    return replyRefused(submission, result, {
      formMessage: `Failed to record receipt: ${result.message}`,
      always: true,
    });
  return redirectWithToast(`/receipts/${result.receipt.id}`, { title: "Receipt recorded" });
}

export default function RecordReceiptPage() {
  const { today, clients, client, invoices, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const pending = useIsPending();
  const [form, fields] = useForm<{
    clientId: string;
    date: string;
    amount: string;
    reference: string;
    allocations: string;
    idempotencyKey: string;
  }>({
    lastResult,
    constraint,
    defaultValue: { date: today, idempotencyKey, clientId: client ? String(client.id) : "" },
  });
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <Breadcrumb to="/receipts">Receipts</Breadcrumb>
      <PageHeader title="Record Receipt" subtitle="One transfer from a client, over one or more of its invoices" />
      <Form method="get" className="card flex flex-wrap items-end gap-3 p-4">
        <div className="min-w-0 flex-1">
          <label className="label" htmlFor="receipt-client">
            Client
          </label>
          <select id="receipt-client" name="clientId" className="input" defaultValue={client?.id ?? ""} required>
            <option value="">Choose a client</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-outline">
          Show invoices
        </button>
      </Form>
      {client ? (
        <Form method="post" {...getFormProps(form)} className="card space-y-4 p-4">
          <input {...keyProps} />
          <input type="hidden" name="clientId" value={client.id} />
          <FormErrors errors={form.errors} id={form.errorId} />
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {client.name} withholds WHT at {client.whtRate}%{client.withholdsVat ? " and the VAT" : ""}.
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            <MoneyField meta={fields.amount} label="Amount received (₦)" />
            <InputField meta={fields.date} label="Date" type="date" />
          </div>
          <InputField meta={fields.reference} label="Bank reference (optional)" />
          <fieldset className="space-y-2">
            <legend className="font-semibold">What it settles</legend>
            <p className="text-sm text-slate-500">
              Leave blank to settle the oldest due invoices first. An amount is what it settles of the invoice: cash
              plus what the client withheld.
            </p>
            <ErrorList errors={fields.allocations.errors} id={fields.allocations.errorId} />
            {invoices.length === 0 ? <p className="text-sm">This client owes nothing.</p> : null}
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {invoices.map((i, n) => (
                <li key={i.id} className="flex flex-wrap items-end justify-between gap-2 py-2">
                  <div className="text-sm">
                    <p className="font-semibold">Invoice #{i.invoiceNo}</p>
                    <p className="text-slate-500">
                      Due {formatDate(i.due)} · balance {formatNaira(i.balance)} · settled whole by{" "}
                      {formatNaira(i.cashToSettle)} cash
                    </p>
                  </div>
                  <input type="hidden" name={`allocations[${n}].invoiceId`} value={i.id} />
                  <label className="w-40">
                    <span className="sr-only">Amount settled of invoice #{i.invoiceNo}</span>
                    <input
                      name={`allocations[${n}].amount`}
                      inputMode="decimal"
                      className="input"
                      placeholder="Amount settled"
                      aria-describedby={fields.allocations.errorId}
                    />
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <SubmitButton pending={pending} pendingLabel="Recording..." className="btn-primary w-full">
            Record Receipt
          </SubmitButton>
        </Form>
      ) : null}
    </div>
  );
}
