import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Dialog, FormError } from "~/components/dialog";
import { createInvoiceForDelivery, listEligibleDeliveries, nextInvoiceNumber, previewInvoice } from "~/models/invoice.server";
import { requireRole } from "~/utils/auth.server";
import { formatDeliveryDate } from "~/utils/dates";
import { formatAmount, formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Generate Invoice · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  const deliveryId = parseId(new URL(request.url).searchParams.get("deliveryId"));
  const [eligible, preview, invoiceNo] = await Promise.all([
    listEligibleDeliveries(),
    deliveryId ? previewInvoice(deliveryId) : Promise.resolve(null),
    nextInvoiceNumber(),
  ]);
  return {
    eligible: eligible.map((d) => ({ id: d.id, label: `${formatDeliveryDate(d.date)} · ${d.agentName ?? "Agent"} · ${formatAmount(d.tons)} t · ${d.clientName}` })),
    preview: preview && {
      deliveryId: preview.delivery.id,
      amount: preview.amount,
      profit: preview.profit,
      taxRate: preview.taxRate,
      expectedPaymentDate: preview.expectedPaymentDate,
      clientName: preview.clientName,
    },
    invoiceNo,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, ["manager", "admin"]);
  const form = await request.formData();
  // Only the delivery is taken from the form: every figure is recomputed from the database.
  const result = await createInvoiceForDelivery(user, { deliveryId: form.get("deliveryId") ?? undefined });
  if (!result.ok) return data({ message: result.message }, { status: result.status });
  return redirectWithToast("/invoices", { title: "Invoice created successfully", description: `Invoice #${result.invoice.invoiceNo}` });
}

export default function GenerateInvoiceRoute() {
  const { eligible, preview, invoiceNo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <Dialog title="Generate Invoice" description="Choose a confirmed delivery; the figures fill in." closeTo="/invoices">
      {eligible.length === 0 ? (
        <p className="text-sm">No confirmed deliveries with clients available for invoicing.</p>
      ) : (
        <div className="space-y-4">
          {actionData?.message ? <FormError errors={[`Failed to create invoice: ${actionData.message}`]} /> : null}
          <Form method="get" className="flex items-end gap-2" onChange={(e) => submit(e.currentTarget, { preventScrollReset: true, replace: true })}>
            <div className="flex-1">
              <label className="label" htmlFor="deliveryId">Delivery</label>
              <select id="deliveryId" name="deliveryId" className="input" defaultValue={preview?.deliveryId ?? ""} required>
                <option value="" disabled>Please select a delivery</option>
                {eligible.map((d) => (
                  <option key={d.id} value={d.id}>{d.label}</option>
                ))}
              </select>
            </div>
            <noscript>
              <button type="submit" className="btn-outline">Fill in</button>
            </noscript>
          </Form>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="deliveryId" value={preview?.deliveryId ?? ""} />
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <ReadOnly label="Invoice number" value={`#${invoiceNo}`} />
              <ReadOnly label="Client" value={preview?.clientName ?? "-"} />
              <ReadOnly label="Amount" value={preview ? formatNaira(preview.amount) : "-"} />
              <ReadOnly label="Tax rate" value={preview ? `${preview.taxRate}%` : "-"} />
              <ReadOnly label="Profit" value={preview ? formatNaira(preview.profit) : "-"} />
              <ReadOnly label="Expected payment date" value={preview ? formatDeliveryDate(preview.expectedPaymentDate) : "-"} />
            </dl>
            <button type="submit" className="btn-primary w-full" disabled={!preview || busy}>
              {busy ? "Generating..." : "Generate Invoice"}
            </button>
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
