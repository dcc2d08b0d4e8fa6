import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { FormErrors, SubmitButton } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { Pager } from "~/components/pager";
import { nextInvoiceNumber } from "~/models/invoice.server";
import { parsePickerFilters } from "~/schemas/invoice-filters";
import { listEligibleDeliveries, previewInvoice } from "~/presenters/invoice-picker.server";
import { createInvoiceForDelivery } from "~/services/invoices/create-invoice.server";
import { requireCapability } from "~/rules/capabilities.server";
import { GenerateInvoiceFormSchema } from "~/schemas/forms";
import { replyRefused } from "~/utils/form-reply.server";
import { formatDate } from "~/utils/dates";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira, formatTons } from "~/utils/money";
import { parseId, readPageRequest } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";
import { INVOICE_LIST_PARAMS, keptSearch, listUrlFrom } from "~/utils/list-search";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

export const meta: MetaFunction = () => [{ title: "Generate Invoice · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  const params = new URL(request.url).searchParams;
  const deliveryId = parseId(params.get("deliveryId"));
  const filters = parsePickerFilters(params);
  // Its own cursor names: /invoices behind the dialog reads `cursor` and `before`.
  const asked = readPageRequest(
    new URLSearchParams({ cursor: params.get("pickerCursor") ?? "", before: params.get("pickerBefore") ?? "" }),
    "date",
  );
  const page = asked.invalid ? { cursor: null, direction: "older" as const } : asked;
  const [eligible, preview, invoiceNo] = await Promise.all([
    listEligibleDeliveries(user, filters, { page }),
    deliveryId ? previewInvoice(user, deliveryId) : Promise.resolve(null),
    nextInvoiceNumber(),
  ]);
  return {
    eligible: eligible.items.map((d) => ({
      id: d.id,
      label: `${formatDate(d.date)} · ${d.agentName ?? "Agent"} · ${formatTons(d.tons)} t · ${d.clientName} · ${d.location}`,
    })),
    olderCursor: eligible.olderCursor,
    newerCursor: eligible.newerCursor,
    searched: Boolean(
      filters.agent || filters.date || filters.location || params.get("pickerCursor") || params.get("pickerBefore"),
    ),
    preview: preview && {
      deliveryId: preview.delivery.id,
      amount: preview.amount,
      profit: preview.profit,
      taxRate: preview.taxRate,
      expectedPaymentDate: preview.expectedPaymentDate,
      clientName: preview.clientName,
    },
    invoiceNo,
    // One key per opened dialog: a double tap or a retry replays the first invoice.
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  const form = await readForm(request);
  // The invoice model has the last word (see GenerateInvoiceFormSchema).
  const submission = parseWithZod(form, { schema: GenerateInvoiceFormSchema, disableAutoCoercion: true });
  // Only the delivery is taken from the form: every figure is recomputed from the database.
  const result = await createInvoiceForDelivery(
    user,
    { deliveryId: form.get("deliveryId") ?? undefined },
    { idempotencyKey: keyOf(null, form.get("idempotencyKey")) },
  );
  if (!result.ok)
    return replyRefused(submission, result, {
      formMessage: `Failed to create invoice: ${result.message}`,
      always: true,
    });
  // Back to the list as it was when the dialog opened: its filters and page (decision 0300).
  return redirectWithToast(listUrlFrom("/invoices", request.url, INVOICE_LIST_PARAMS), {
    title: "Invoice created successfully",
    description: `Invoice #${result.invoice.invoiceNo}`,
  });
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function GenerateInvoiceRoute() {
  const { eligible, olderCursor, newerCursor, searched, preview, invoiceNo, idempotencyKey } =
    useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  // The list behind the dialog keeps its filters and page: Close returns to it, and the picker's
  // search (a GET form, which sends only its own fields) carries them along.
  const listParams = new URLSearchParams(keptSearch(params, INVOICE_LIST_PARAMS));
  const choose = (id: number) => {
    const next = new URLSearchParams(params);
    next.set("deliveryId", String(id));
    return `?${next}`;
  };
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ formMethod: "POST" });
  const [form] = useForm({ id: "generate-invoice", lastResult: actionData?.result });
  return (
    <Dialog
      title="Generate Invoice"
      description="Choose a confirmed delivery; the figures fill in."
      closeTo={`/invoices${keptSearch(params, INVOICE_LIST_PARAMS)}`}
    >
      {eligible.length === 0 && !searched ? (
        <p className="text-sm">No confirmed deliveries with clients available for invoicing.</p>
      ) : (
        <div className="space-y-4">
          <FormErrors errors={form.errors} id={form.errorId} />
          <Form
            key={params.toString()}
            method="get"
            // The date column is as wide as a whole date and its calendar button ("mm/dd/yyyy" was cut).
            className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)_auto] sm:items-end"
            aria-label="Find a delivery"
            preventScrollReset
            replace
          >
            {[...listParams].map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            {preview ? <input type="hidden" name="deliveryId" value={preview.deliveryId} /> : null}
            <div>
              <label className="label" htmlFor="picker-agent">
                Agent
              </label>
              <input id="picker-agent" name="agent" className="input" defaultValue={params.get("agent") ?? ""} />
            </div>
            <div>
              <label className="label" htmlFor="picker-date">
                Date
              </label>
              <input
                id="picker-date"
                name="date"
                type="date"
                className="input min-w-[10rem]"
                defaultValue={params.get("date") ?? ""}
              />
            </div>
            <div>
              <label className="label" htmlFor="picker-location">
                Location
              </label>
              <input
                id="picker-location"
                name="location"
                className="input"
                defaultValue={params.get("location") ?? ""}
              />
            </div>
            <button type="submit" className="btn-outline">
              Search
            </button>
          </Form>
          {eligible.length === 0 ? (
            <p className="page-subtitle">No deliveries match the search</p>
          ) : (
            <ul
              className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-700"
              aria-label="Deliveries to invoice"
            >
              {eligible.map((d) => {
                const chosen = preview?.deliveryId === d.id;
                return (
                  <li key={d.id}>
                    <Link
                      to={choose(d.id)}
                      replace
                      preventScrollReset
                      aria-current={chosen ? "true" : undefined}
                      className={`block px-3 py-2 hover:bg-slate-50 dark:hover:bg-slate-800 ${chosen ? "bg-green-50 font-semibold dark:bg-green-950" : ""}`}
                    >
                      {d.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
          <Pager
            label="Delivery pages"
            olderCursor={olderCursor}
            newerCursor={newerCursor}
            names={{ cursor: "pickerCursor", before: "pickerBefore" }}
          />
          <Form method="post" {...getFormProps(form)} className="space-y-3">
            <input type="hidden" name="deliveryId" value={preview?.deliveryId ?? ""} />
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <ReadOnly label="Invoice number" value={`#${invoiceNo}`} />
              <ReadOnly label="Client" value={preview?.clientName ?? "-"} />
              <ReadOnly label="Amount" value={preview ? formatNaira(preview.amount) : "-"} />
              <ReadOnly label="Tax rate" value={preview ? `${preview.taxRate}%` : "-"} />
              <ReadOnly label="Profit" value={preview ? formatNaira(preview.profit) : "-"} />
              <ReadOnly label="Expected payment date" value={preview ? formatDate(preview.expectedPaymentDate) : "-"} />
            </dl>
            <SubmitButton
              pending={busy}
              pendingLabel="Generating..."
              className="btn-primary w-full"
              disabled={!preview}
            >
              Generate Invoice
            </SubmitButton>
            {!preview ? <p className="page-subtitle text-center">Please select a delivery</p> : null}
          </Form>
        </div>
      )}
    </Dialog>
  );
}

function ReadOnly({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}
