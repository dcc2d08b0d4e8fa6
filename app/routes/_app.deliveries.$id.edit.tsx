import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { FormErrors, InputField, MoneyField, SelectField, SubmitButton, useChoiceSearch } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { AuditEventList } from "~/components/audit/audit-event-list";
import { DeliveryWeights } from "~/components/deliveries/delivery-weights";
import { listAgentChoices } from "~/models/agent.server";
import { listAuditEvents } from "~/models/audit.server";
import { presentAuditEvents } from "~/presenters/audit-events.server";
import { listClientChoices } from "~/models/client.server";
import { getDelivery, invoiceNumberOf, isInvoiced } from "~/models/delivery.server";
import {
  LOADING_TICKET_TONS_MESSAGE,
  RECEIVED_TICKET_CLIENT_MESSAGE,
  updateDelivery,
} from "~/models/delivery-changes.server";
import { presentWeights } from "~/presenters/delivery-weights.server";
import { closedMonthReason, getClosedThrough, isInClosedMonth } from "~/models/period.server";
import { EDIT_DELIVERY_FORM_CONSTRAINT, EditDeliveryFormSchema } from "~/schemas/delivery";
import { DELIVERY_LIST_PARAMS, keptSearch, listUrlFrom } from "~/utils/list-search";
import { parseId } from "~/utils/params";
import { requireCapability } from "~/rules/capabilities.server";
import { formatDate } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { formatNaira, formatTons } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";
import { rateSourceLines } from "~/presenters/delivery-rates.server";

export const meta: MetaFunction = () => [{ title: "Edit Delivery · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "delivery.financials");
  const id = parseId(params.id);
  invariantResponse(id, "Delivery not found");
  const [delivery, agents, clients, closedThrough] = await Promise.all([
    getDelivery(user, id),
    listAgentChoices(),
    listClientChoices(),
    getClosedThrough(),
  ]);
  invariantResponse(delivery, "Delivery not found");
  // Its own history, newest first: the latest events here, the rest in the Audit Trail (admins).
  const history = await listAuditEvents(
    user,
    { entityType: "delivery", entityId: String(id) },
    { limit: HISTORY_LIMIT },
  );
  const closedReason =
    closedThrough && isInClosedMonth(delivery.date, closedThrough) ? closedMonthReason(closedThrough) : null;
  const list = keptSearch(new URL(request.url).searchParams, DELIVERY_LIST_PARAMS);
  return {
    delivery,
    // An invoiced delivery keeps its tons, rates and client, and cannot be deleted: the form
    // says so up front instead of after Save.
    invoiceNo: isInvoiced(delivery) ? ((await invoiceNumberOf(delivery.invoiceId)) ?? "") : null,
    // In a closed month nothing can change (decision 0901): the dialog shows it read-only, with why.
    closedReason,
    // The three weights and the tickets (docs/decisions/1220). A loading ticket's net is the
    // tons, and a received ticket ties the delivery to its client: those show read-only, with why.
    weights: presentWeights(delivery, env().APP_TIME_ZONE),
    ticketNotes: {
      tons: delivery.tickets.some((t) => t.kind === "loading") ? LOADING_TICKET_TONS_MESSAGE : null,
      client: delivery.receivedTons !== null ? RECEIVED_TICKET_CLIENT_MESSAGE : null,
    },
    recordTicketTo:
      isInvoiced(delivery) || closedReason
        ? null
        : `/deliveries/${id}/tickets/new?${new URLSearchParams([...new URLSearchParams(list), ["back", "edit"]])}`,
    isAdmin: user.role === "admin",
    agents,
    clients,
    constraint: EDIT_DELIVERY_FORM_CONSTRAINT,
    history: await presentAuditEvents(history.events),
    // Where each rate came from: a card, System Settings, typed or changed by hand (decision 1230).
    rateSources: await rateSourceLines(delivery.rateSources),
    moreHistory: history.olderCursor !== null,
  };
}

const HISTORY_LIMIT = 10;

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "delivery.financials");
  const id = parseId(params.id);
  invariantResponse(id, "Delivery not found");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: EditDeliveryFormSchema, disableAutoCoercion: true });
  const failed = (first: string) => `Failed to update delivery: ${first}`;
  if (submission.status !== "success") return replyInvalid(submission, { formMessage: failed });
  const form = Object.fromEntries(formData);
  // Empty fields are left as they are (spec section 5); a manager's form has no date, tons or location.
  const input = Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string" && v.trim() !== ""));
  const result = await updateDelivery(user, id, input);
  if (!result.ok) return replyRefused(submission, result, { formMessage: failed(result.message), always: true });
  return redirectWithToast(listUrlFrom("/deliveries", request.url, DELIVERY_LIST_PARAMS), {
    title: "Delivery updated successfully",
  });
}

const MONEY_FIELDS = [
  ["buyingRate", "Buying rate (₦/ton)"],
  ["sellingRate", "Selling rate (₦/ton)"],
  ["logisticsCost", "Logistics cost (₦)"],
  ["otherCosts", "Other costs (₦)"],
  ["mobilizationPayment", "Mobilization payment (₦)"],
] as const;

export default function EditDeliveryRoute() {
  const {
    delivery,
    isAdmin,
    agents,
    clients,
    invoiceNo,
    constraint,
    history,
    moreHistory,
    closedReason,
    weights,
    recordTicketTo,
    ticketNotes,
    rateSources,
  } = useLoaderData<typeof loader>();
  const locked = invoiceNo !== null;
  const actionData = useActionData<typeof action>();
  const pending = useIsPending({ formMethod: "POST" });
  const [form, fields] = useForm<Record<string, string>>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: {
      date: delivery.date,
      // Typed tons have two decimals; stored ones three (docs/decisions/1220): "30.550" shows as typed.
      tons: delivery.tons.replace(/(\.\d\d)0$/, "$1"),
      location: delivery.location,
      agentId: String(delivery.agentId),
      clientId: delivery.clientId ? String(delivery.clientId) : "",
      buyingRate: delivery.buyingRate ?? "",
      sellingRate: delivery.sellingRate ?? "",
      logisticsCost: delivery.logisticsCost ?? "",
      otherCosts: delivery.otherCosts ?? "",
      mobilizationPayment: delivery.mobilizationPayment ?? "",
      otherCostsDescription: delivery.otherCostsDescription ?? "",
    },
  });
  const agentSearch = useChoiceSearch(agents, fields.agentId.id, "agents");
  const clientSearch = useChoiceSearch(clients, fields.clientId.id, "clients");
  // The list's filters and page, kept by Close, Save and Delete (decision 0200).
  const list = keptSearch(useLocation().search, DELIVERY_LIST_PARAMS);
  const historyPart = (
    <DeliveryHistory deliveryId={delivery.id} history={history} moreHistory={moreHistory} isAdmin={isAdmin} />
  );
  if (closedReason) {
    return (
      <Dialog
        title="Delivery"
        description={`${formatDate(delivery.date)} · ${delivery.agentName}`}
        closeTo={`/deliveries${list}`}
        size="lg"
      >
        <ClosedDelivery delivery={delivery} reason={closedReason} invoiceNo={invoiceNo} />
        <div className="mt-4">
          <DeliveryWeights weights={weights} recordTicketTo={null} />
        </div>
        <div className="mt-4 flex justify-end">
          <Link to={`/deliveries${list}`} className="btn-outline" preventScrollReset>
            Back
          </Link>
        </div>
        {historyPart}
      </Dialog>
    );
  }
  return (
    <Dialog
      title="Edit Delivery"
      description={`${formatDate(delivery.date)} · ${delivery.agentName}`}
      closeTo={`/deliveries${list}`}
      size="lg"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={form.errors} id={form.errorId} />
        {locked ? (
          <p
            role="note"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          >
            Invoiced on <strong>Invoice #{invoiceNo}</strong>: its tons, rates and client can no longer change, and it
            cannot be deleted. Its logistics and other costs can: the invoice&apos;s profit follows them.
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {isAdmin ? (
            <>
              <InputField meta={fields.date} label="Date *" type="date" />
              {locked || ticketNotes.tons ? (
                <ReadOnlyValue
                  label="Tons *"
                  value={formatTons(delivery.tons)}
                  testId="readonly-tons"
                  note={locked ? null : ticketNotes.tons}
                />
              ) : (
                <InputField meta={fields.tons} label="Tons *" type="number" inputMode="decimal" />
              )}
              <InputField meta={fields.location} label="Location *" className="sm:col-span-2" />
            </>
          ) : (
            <dl className="grid gap-2 text-sm sm:col-span-2 sm:grid-cols-3">
              <div>
                <dt className="label">Date *</dt>
                <dd data-testid="readonly-date">{formatDate(delivery.date)}</dd>
              </div>
              <div>
                <dt className="label">Tons *</dt>
                <dd data-testid="readonly-tons">{formatTons(delivery.tons)}</dd>
              </div>
              <div>
                <dt className="label">Location *</dt>
                <dd>{delivery.location}</dd>
              </div>
            </dl>
          )}
          <SelectField meta={fields.agentId} label="Agent *" search={agentSearch.search}>
            {agentSearch.shown.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </SelectField>
          {locked || ticketNotes.client ? (
            <ReadOnlyValue
              label="Client"
              value={delivery.clientName ?? "-"}
              testId="readonly-client"
              note={locked ? null : ticketNotes.client}
            />
          ) : (
            <SelectField meta={fields.clientId} label="Client" search={clientSearch.search}>
              <option value="">No client</option>
              {clientSearch.shown.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
          )}
          {MONEY_FIELDS.map(([name, label]) =>
            locked && (name === "buyingRate" || name === "sellingRate") ? (
              <ReadOnlyValue
                key={name}
                label={label}
                value={delivery[name] ? formatNaira(delivery[name]) : "-"}
                testId={`readonly-${name}`}
              />
            ) : (
              <MoneyField key={name} meta={fields[name]} label={label} />
            ),
          )}
          <InputField meta={fields.otherCostsDescription} label="Other cost explanation" />
        </div>
        {rateSources.length ? (
          <section aria-labelledby="rate-sources" className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
            <h3 id="rate-sources" className="font-semibold">
              Where the rates came from
            </h3>
            <dl className="mt-1 grid gap-1 sm:grid-cols-[auto_1fr] sm:gap-x-3">
              {rateSources.map((line) => (
                <div key={line.label} className="contents">
                  <dt className="text-slate-600 dark:text-slate-300">{line.label}</dt>
                  <dd className="wrap-any">{line.words}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        <DeliveryWeights weights={weights} recordTicketTo={recordTicketTo} />
        {isAdmin && delivery.netPaymentToAgent ? (
          <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
            Net Payment to Agent: <strong>{formatNaira(delivery.netPaymentToAgent)}</strong>
          </p>
        ) : null}
        <div className="flex flex-wrap justify-between gap-2">
          {isAdmin && !locked ? (
            <Link to={`/deliveries/${delivery.id}/delete${list}`} className="btn-destructive" preventScrollReset>
              Delete
            </Link>
          ) : (
            <span />
          )}
          <SubmitButton pending={pending} pendingLabel="Saving...">
            Save Changes
          </SubmitButton>
        </div>
      </Form>
      {historyPart}
    </Dialog>
  );
}

function DeliveryHistory({
  deliveryId,
  history,
  moreHistory,
  isAdmin,
}: {
  deliveryId: number;
  history: Parameters<typeof AuditEventList>[0]["events"];
  moreHistory: boolean;
  isAdmin: boolean;
}) {
  return (
    <details className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-700">
      <summary className="cursor-pointer font-semibold">History</summary>
      <div className="mt-3">
        <AuditEventList
          events={history}
          showEntity={false}
          showAddress={false}
          label="Delivery history"
          emptyText="No recorded changes yet."
        />
        {moreHistory ? (
          <p className="mt-2 text-sm">
            {isAdmin ? (
              <Link to={`/audit?entity=delivery&entityId=${deliveryId}`} className="underline">
                Older changes in the Audit Trail
              </Link>
            ) : (
              `Showing the latest ${history.length} changes.`
            )}
          </p>
        ) : null}
      </div>
    </details>
  );
}

type ShownDelivery = ReturnType<typeof useLoaderData<typeof loader>>["delivery"];

/** A delivery of a closed month: every field as text, and why none can change. */
function ClosedDelivery({
  delivery,
  reason,
  invoiceNo,
}: {
  delivery: ShownDelivery;
  reason: string;
  invoiceNo: string | null;
}) {
  const money = (value: string | null | undefined) => (value ? formatNaira(value) : "-");
  const rows: [string, string][] = [
    ["Date", formatDate(delivery.date)],
    ["Tons", formatTons(delivery.tons)],
    ["Location", delivery.location],
    ["Agent", delivery.agentName ?? "-"],
    ["Client", delivery.clientName ?? "-"],
    ...MONEY_FIELDS.map(([name, label]): [string, string] => [label, money(delivery[name])]),
    ["Other cost explanation", delivery.otherCostsDescription || "-"],
    ["Invoice", invoiceNo ? `#${invoiceNo}` : "-"],
  ];
  return (
    <div className="space-y-4">
      {/* The dialog starts on the reason (data-autofocus), so a phone shows it first, not the Back button. */}
      <p
        role="note"
        tabIndex={-1}
        data-autofocus
        className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      >
        {reason}
      </p>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-slate-500">{label}</dt>
            <dd className="break-words tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function ReadOnlyValue({
  label,
  value,
  testId,
  note,
}: {
  label: string;
  value: string;
  testId: string;
  /** Why it cannot change, when the notice above does not say it. */
  note?: string | null;
}) {
  return (
    <div>
      <p className="label">{label}</p>
      <p
        className="rounded-md border border-dashed border-slate-300 px-3 py-2 text-sm tabular-nums dark:border-slate-700"
        data-testid={testId}
      >
        {value}
      </p>
      {note ? <p className="page-subtitle mt-1">{note}</p> : null}
    </div>
  );
}
