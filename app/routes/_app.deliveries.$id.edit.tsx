import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Dialog, FieldError, FormError } from "~/components/dialog";
import { MoneyInput } from "~/components/forms/money-field";
import { listAgents } from "~/models/agent.server";
import { listClients } from "~/models/client.server";
import { getDelivery, invoiceNumberOf, isInvoiced, updateDelivery } from "~/models/delivery.server";
import { parseId } from "~/utils/params";
import { requireRole } from "~/utils/auth.server";
import { formatDeliveryDate } from "~/utils/dates";
import { invariantResponse } from "~/utils/http.server";
import { formatAmount, formatNaira } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Edit Delivery · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, ["manager", "admin"]);
  const id = parseId(params.id);
  invariantResponse(id, "Delivery not found");
  const [delivery, agents, clients] = await Promise.all([getDelivery(user, id), listAgents(), listClients()]);
  invariantResponse(delivery, "Delivery not found");
  return {
    delivery,
    // An invoiced delivery keeps its tons, rates and client, and cannot be deleted: the form
    // says so up front instead of after Save.
    invoiceNo: isInvoiced(delivery) ? ((await invoiceNumberOf(delivery.invoiceId)) ?? "") : null,
    isAdmin: user.role === "admin",
    agents: agents.map((a) => ({ id: a.id, name: a.name })),
    clients: clients.map((c) => ({ id: c.id, name: c.name })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, ["manager", "admin"]);
  const id = parseId(params.id);
  invariantResponse(id, "Delivery not found");
  const form = Object.fromEntries(await request.formData());
  // Empty fields are left as they are (spec section 5); a manager's form has no date, tons or location.
  const input = Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string" && v.trim() !== ""));
  const result = await updateDelivery(user, id, input);
  if (!result.ok) {
    return data({ message: result.message, fieldErrors: result.fieldErrors ?? {}, values: form }, { status: result.status });
  }
  return redirectWithToast("/deliveries", { title: "Delivery updated successfully" });
}

export default function EditDeliveryRoute() {
  const { delivery, isAdmin, agents, clients, invoiceNo } = useLoaderData<typeof loader>();
  const locked = invoiceNo !== null;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = actionData?.fieldErrors ?? {};
  const values = (actionData?.values ?? {}) as Record<string, string>;
  const v = (name: string, fallback: string | null | undefined) => (typeof values[name] === "string" ? values[name] : fallback ?? "");
  return (
    <Dialog title="Edit Delivery" description={`${formatDeliveryDate(delivery.date)} · ${delivery.agentName}`} closeTo="/deliveries" size="lg">
      <Form method="post" className="space-y-4">
        {actionData?.message ? <FormError errors={[`Failed to update delivery: ${actionData.message}`]} /> : null}
        {locked ? (
          <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
            Invoiced on <strong>Invoice #{invoiceNo}</strong>: its tons, rates and client can no longer change, and it cannot be deleted.
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {isAdmin ? (
            <>
              <div>
                <label className="label" htmlFor="date">Date *</label>
                <input id="date" name="date" type="date" className="input" required defaultValue={v("date", delivery.date)} />
                <FieldError errors={errors.date} />
              </div>
              {locked ? (
                <ReadOnlyValue label="Tons *" value={formatAmount(delivery.tons)} testId="readonly-tons" />
              ) : (
                <div>
                  <label className="label" htmlFor="tons">Tons *</label>
                  <input id="tons" name="tons" type="number" step="0.01" min="0.01" inputMode="decimal" className="input" required defaultValue={v("tons", delivery.tons)} />
                  <FieldError errors={errors.tons} />
                </div>
              )}
              <div className="sm:col-span-2">
                <label className="label" htmlFor="location">Location *</label>
                <input id="location" name="location" className="input" required maxLength={200} defaultValue={v("location", delivery.location)} />
                <FieldError errors={errors.location} />
              </div>
            </>
          ) : (
            <dl className="grid gap-2 text-sm sm:col-span-2 sm:grid-cols-3">
              <div><dt className="label">Date *</dt><dd data-testid="readonly-date">{formatDeliveryDate(delivery.date)}</dd></div>
              <div><dt className="label">Tons *</dt><dd data-testid="readonly-tons">{formatAmount(delivery.tons)}</dd></div>
              <div><dt className="label">Location *</dt><dd>{delivery.location}</dd></div>
            </dl>
          )}
          <div>
            <label className="label" htmlFor="agentId">Agent *</label>
            <select id="agentId" name="agentId" className="input" defaultValue={v("agentId", String(delivery.agentId))}>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>{a.name}</option>
              ))}
            </select>
            <FieldError errors={errors.agentId} />
          </div>
          {locked ? (
            <ReadOnlyValue label="Client" value={delivery.clientName ?? "-"} testId="readonly-client" />
          ) : (
            <div>
              <label className="label" htmlFor="clientId">Client</label>
              <select id="clientId" name="clientId" className="input" defaultValue={v("clientId", delivery.clientId ? String(delivery.clientId) : "")}>
                <option value="">No client</option>
                {clients.map((c) => (
                  <option key={c.id} value={c.id}>{c.name}</option>
                ))}
              </select>
              <FieldError errors={errors.clientId} />
            </div>
          )}
          {(
            [
              ["buyingRate", "Buying rate (₦/ton)"],
              ["sellingRate", "Selling rate (₦/ton)"],
              ["logisticsCost", "Logistics cost (₦)"],
              ["otherCosts", "Other costs (₦)"],
              ["mobilizationPayment", "Mobilization payment (₦)"],
            ] as const
          ).map(([name, label]) =>
            locked && (name === "buyingRate" || name === "sellingRate") ? (
              <ReadOnlyValue key={name} label={label} value={delivery[name] ? formatNaira(delivery[name]) : "-"} testId={`readonly-${name}`} />
            ) : (
            <div key={name}>
              <label className="label" htmlFor={name}>{label}</label>
              <MoneyInput id={name} name={name} defaultValue={v(name, delivery[name])} />
              <FieldError errors={errors[name]} />
            </div>
            ),
          )}
          <div>
            <label className="label" htmlFor="otherCostsDescription">Other cost explanation</label>
            <input id="otherCostsDescription" name="otherCostsDescription" className="input" maxLength={500} defaultValue={v("otherCostsDescription", delivery.otherCostsDescription)} />
            <FieldError errors={errors.otherCostsDescription} />
          </div>
        </div>
        {isAdmin && delivery.netPaymentToAgent ? (
          <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
            Net Payment to Agent: <strong>{formatNaira(delivery.netPaymentToAgent)}</strong>
          </p>
        ) : null}
        <div className="flex flex-wrap justify-between gap-2">
          {isAdmin && !locked ? (
            <Link to={`/deliveries/${delivery.id}/delete`} className="btn-destructive" preventScrollReset>
              Delete
            </Link>
          ) : <span />}
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Saving..." : "Save Changes"}
          </button>
        </div>
      </Form>
    </Dialog>
  );
}

function ReadOnlyValue({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <p className="label">{label}</p>
      <p className="rounded-md border border-dashed border-slate-300 px-3 py-2 text-sm tabular-nums dark:border-slate-700" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}
