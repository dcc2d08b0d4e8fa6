import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Dialog, FieldError, FormError } from "~/components/dialog";
import { MoneyInput } from "~/components/forms/money-field";
import { useOutboxForm } from "~/components/outbox-form";
import { listAgents } from "~/models/agent.server";
import { createDelivery, getDeliveryClient } from "~/models/delivery.server";
import { safeRedirect } from "~/schemas/auth";
import { requireUser } from "~/utils/auth.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { formatAmount } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "New Delivery · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  const [agents, fixed] = await Promise.all([listAgents(), getDeliveryClient()]);
  return {
    agents: agents.map((a) => ({ id: a.id, name: a.name })),
    client: fixed.client ? { id: fixed.client.id, name: fixed.client.name } : null,
    clientError: fixed.missingMessage,
    today: todayIn(env().APP_TIME_ZONE),
    timeZone: env().APP_TIME_ZONE,
    // When this copy was made: a copy served from the phone's cache says how old it is.
    loadedAt: Date.now(),
    // One key per opened form: a retry or double tap of the same submission replays it.
    idempotencyKey: crypto.randomUUID(),
    returnTo: url.searchParams.get("from") === "dashboard" ? "/" : "/deliveries",
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = Object.fromEntries(await request.formData());
  const { returnTo, ...input } = form;
  // The form is fixed to the delivery client: the server resolves it, whatever is posted.
  delete input.clientId;
  const result = await createDelivery(user, input);
  if (!result.ok) {
    return data({ message: result.message, fieldErrors: result.fieldErrors ?? {}, values: form }, { status: result.status });
  }
  return redirectWithToast(safeRedirect(returnTo, "/deliveries"), {
    title: "Delivery Recorded",
    description: `${formatAmount(result.delivery.tons)} tons added successfully`,
  });
}

export default function NewDeliveryRoute() {
  const { agents, client, clientError, today, timeZone, loadedAt, idempotencyKey, returnTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const values = (actionData?.values ?? {}) as Record<string, string>;
  const text = (name: string) => (typeof values[name] === "string" ? values[name] : undefined);
  // With JavaScript the submission goes through the phone's outbox; without it, a plain post.
  const outbox = useOutboxForm({ serverKey: text("idempotencyKey") ?? idempotencyKey, today, timeZone, loadedAt, returnTo, agents });
  const busy = outbox.sending || (navigation.state !== "idle" && navigation.formMethod === "POST");
  const errors = outbox.errors?.fieldErrors ?? actionData?.fieldErrors ?? {};
  const message = outbox.errors ? outbox.errors.message : actionData?.message;
  return (
    <Dialog title="New Delivery Entry" description="Record tons brought in by an agent." closeTo={returnTo} size="lg">
      {outbox.panel}
      <Form method="post" className="space-y-4" noValidate={false} ref={outbox.formRef} onSubmit={client ? outbox.onSubmit : undefined}>
        <input type="hidden" name="idempotencyKey" value={outbox.key} />
        <input type="hidden" name="returnTo" value={returnTo} />
        {outbox.notice}
        {message && !Object.keys(errors).length ? <FormError errors={[message]} /> : null}
        {clientError ? <FormError errors={[clientError]} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label className="label" htmlFor="agentId">Agent *</label>
            <select id="agentId" name="agentId" className="input" required defaultValue={text("agentId") ?? ""} aria-invalid={!!errors.agentId}>
              <option value="" disabled>Select an agent</option>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>{a.name}</option>
              ))}
            </select>
            <FieldError errors={errors.agentId} />
          </div>
          <div>
            <label className="label" htmlFor="client">Client</label>
            <input id="client" className="input" value={client?.name ?? "Not found"} readOnly disabled />
            <FieldError errors={errors.clientId} />
          </div>
          <div>
            <label className="label" htmlFor="date">Date *</label>
            <input id="date" name="date" type="date" className="input" required defaultValue={text("date") ?? today} max="9999-12-31" />
            <FieldError errors={errors.date} />
          </div>
          <div>
            <label className="label" htmlFor="tons">Tons *</label>
            <input id="tons" name="tons" type="number" step="0.01" min="0.01" inputMode="decimal" className="input" required defaultValue={text("tons")} aria-invalid={!!errors.tons} />
            <FieldError errors={errors.tons} />
          </div>
          <div>
            <label className="label" htmlFor="truckNo">Truck No.</label>
            <input id="truckNo" name="truckNo" className="input" disabled placeholder="Recorded at the weighbridge" />
          </div>
          <div>
            <label className="label" htmlFor="location">Location *</label>
            <input id="location" name="location" className="input" required maxLength={200} placeholder="Pick-up site" defaultValue={text("location")} aria-invalid={!!errors.location} />
            <FieldError errors={errors.location} />
          </div>
          <div>
            <label className="label" htmlFor="logisticsCost">Logistics cost (₦)</label>
            <MoneyInput id="logisticsCost" name="logisticsCost" defaultValue={text("logisticsCost")} />
            <FieldError errors={errors.logisticsCost} />
          </div>
          <div>
            <label className="label" htmlFor="mobilizationPayment">Mobilization payment (₦)</label>
            <MoneyInput id="mobilizationPayment" name="mobilizationPayment" defaultValue={text("mobilizationPayment")} />
            <FieldError errors={errors.mobilizationPayment} />
          </div>
          <div>
            <label className="label" htmlFor="otherCosts">Other costs (₦)</label>
            <MoneyInput id="otherCosts" name="otherCosts" defaultValue={text("otherCosts")} />
            <FieldError errors={errors.otherCosts} />
          </div>
          <div>
            <label className="label" htmlFor="otherCostsDescription">Other cost explanation</label>
            <input id="otherCostsDescription" name="otherCostsDescription" className="input" maxLength={500} defaultValue={text("otherCostsDescription")} />
            <FieldError errors={errors.otherCostsDescription} />
          </div>
        </div>
        <div>
          <label className="label" htmlFor="remarks">Remarks</label>
          <textarea id="remarks" name="remarks" rows={2} className="input" maxLength={1000} defaultValue={text("remarks")} />
          <FieldError errors={errors.remarks} />
        </div>
        <button type="submit" className="btn-primary w-full" disabled={busy || !client}>
          {busy ? "Saving..." : "Record Delivery"}
        </button>
      </Form>
    </Dialog>
  );
}
