import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Dialog } from "~/components/dialog";
import { LoadingTicketFields } from "~/components/deliveries/loading-ticket";
import {
  Field,
  fieldAria,
  FormErrors,
  MONEY_HINT,
  MoneyInput,
  SubmitButton,
  type FieldMeta,
  useChoiceSearch,
} from "~/components/forms";
import { useHydrated } from "~/hooks/use-hydrated";
import { useIsPending } from "~/hooks/use-is-pending";
import { useOutboxForm } from "~/components/outbox-form";
import { listAgentChoices } from "~/models/agent.server";
import { getDeliveryClient } from "~/models/delivery.server";
import { getSettings } from "~/models/settings.server";
import { newDeliveryRatesPanel } from "~/presenters/delivery-rates.server";
import { recentPlates } from "~/models/truck.server";
import { requireCapability } from "~/rules/capabilities.server";
import { createDelivery } from "~/services/deliveries/create-delivery.server";
import { safeRedirect } from "~/utils/redirect";
import { NEW_DELIVERY_FORM_CONSTRAINT, NewDeliveryFormSchema } from "~/schemas/delivery";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { formatAmount } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";
import { fileBytes, readUploadForm } from "~/utils/upload.server";
import { MAX_ATTACHMENT_BYTES, PHOTO_TOO_LARGE } from "~/rules/images.server";
import { deliveryBody, TICKET_PHOTO as PHOTO } from "~/utils/outbox-protocol";

const TOO_LONG = "A field is far too long";

export const meta: MetaFunction = () => [{ title: "New Delivery · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "delivery.create");
  const url = new URL(request.url);
  const settings = await getSettings();
  const [agents, fixed, plates] = await Promise.all([listAgentChoices(), getDeliveryClient(settings), recentPlates()]);
  const today = todayIn(env().APP_TIME_ZONE);
  // "Show rates" (no JavaScript) sends the form here as a GET: what was typed comes back in the
  // boxes, and the rates panel is for the agent, site and date chosen (decision 1230).
  const kept: Record<string, string> = {};
  for (const name of Object.keys(NEW_DELIVERY_FORM_CONSTRAINT)) {
    const value = url.searchParams.get(name);
    if (value !== null) kept[name] = value;
  }
  return {
    // For managers and admins, the rates the delivery will get, as server-written HTML.
    rates: await newDeliveryRatesPanel(user, fixed.client, url.searchParams, settings),
    kept,
    agents,
    // Truck No.'s suggestions (docs/decisions/1200): plates only, as a plain <datalist>.
    plates,
    client: fixed.client ? { id: fixed.client.id, name: fixed.client.name } : null,
    clientError: fixed.missingMessage,
    today,
    timeZone: env().APP_TIME_ZONE,
    // When this copy was made: a copy served from the phone's cache says how old it is.
    loadedAt: Date.now(),
    // One key per opened form: a retry or double tap of the same submission replays it.
    idempotencyKey: crypto.randomUUID(),
    returnTo:
      url.searchParams.get("from") === "dashboard" || url.searchParams.get("returnTo") === "/" ? "/" : "/deliveries",
    constraint: NEW_DELIVERY_FORM_CONSTRAINT,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "delivery.create");
  // Multipart with the loading ticket's photo (decision 1220); a photo over 2 MB is read to its
  // end and dropped, so the form says so and keeps what was typed.
  const upload = await readUploadForm(request, MAX_ATTACHMENT_BYTES);
  const { formData } = upload;
  if (!formData) {
    const field = upload.ok ? "" : (upload.field ?? "");
    return data({ result: { status: "error" as const, error: { [field]: [TOO_LONG] } } }, { status: 400 });
  }
  // The delivery model has the last word on every field (it resolves the client, the agent...).
  const submission = parseWithZod(formData, { schema: NewDeliveryFormSchema, disableAutoCoercion: true });
  const hideFields = [PHOTO];
  if (!upload.ok) {
    const large = upload.field === PHOTO;
    return replyRefused(
      submission,
      { status: 400, message: large ? PHOTO_TOO_LARGE : TOO_LONG },
      {
        field: large ? PHOTO : undefined,
        hideFields,
      },
    );
  }
  const input = await deliveryInput(formData);
  const result = await createDelivery(user, input);
  if (!result.ok) return replyRefused(submission, result, { hideFields });
  return redirectWithToast(safeRedirect(formData.get("returnTo"), "/deliveries"), {
    title: "Delivery Recorded",
    description: `${formatAmount(result.delivery.tons)} tons added successfully`,
  });
}

/** The write's input from the form: the loading ticket's boxes as `loadingTicket`, its photo as bytes. */
async function deliveryInput(formData: FormData): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of formData) if (typeof value === "string") fields[name] = value;
  fields[PHOTO] = await fileBytes(formData.get(PHOTO));
  const { returnTo: _returnTo, clientId: _clientId, ...input } = deliveryBody(fields);
  // (The form is fixed to the delivery client: the server resolves it, whatever is posted.)
  return input;
}

export default function NewDeliveryRoute() {
  const {
    agents,
    plates,
    client,
    clientError,
    today,
    timeZone,
    loadedAt,
    idempotencyKey,
    returnTo,
    constraint,
    rates,
    kept,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Conform holds the server's answer (messages, what was typed); the submit itself is the
  // outbox's with JavaScript and a plain post without it, so the form keeps native validation.
  const [form, fields] = useForm<Record<string, string>>({
    id: "new-delivery",
    lastResult: actionData?.result,
    constraint,
  });
  const text = (name: string) =>
    typeof fields[name].initialValue === "string" ? (fields[name].initialValue as string) : kept[name];
  const ratesPanel = useRatesPanel(rates);
  // With JavaScript the submission goes through the phone's outbox; without it, a plain post.
  const outbox = useOutboxForm({
    serverKey: text("idempotencyKey") ?? idempotencyKey,
    today,
    timeZone,
    loadedAt,
    returnTo,
    agents,
  });
  const busy = useIsPending({ formMethod: "POST" }) || outbox.sending;
  const agentSearch = useChoiceSearch(agents, "agentId", "agents");
  // An answer the outbox got from the JSON call wins over the last page answer.
  const meta = (name: string): FieldMeta => {
    const field = fields[name];
    const errors = outbox.errors ? outbox.errors.fieldErrors[name] : field.errors;
    return { id: name, name, errorId: field.errorId, descriptionId: field.descriptionId, errors };
  };
  const formErrors = outbox.errors
    ? outbox.errors.message && !Object.keys(outbox.errors.fieldErrors).length
      ? [outbox.errors.message]
      : null
    : form.errors;
  const c = (name: string) => constraint[name] ?? {};
  return (
    <Dialog title="New Delivery Entry" description="Record tons brought in by an agent." closeTo={returnTo} size="lg">
      {outbox.panel}
      <Form
        id={form.id}
        method="post"
        className="space-y-4"
        noValidate={false}
        encType="multipart/form-data"
        ref={outbox.formRef}
        onSubmit={client ? outbox.onSubmit : undefined}
        onChange={ratesPanel.follow}
      >
        <input type="hidden" name="idempotencyKey" value={outbox.key} />
        <input type="hidden" name="returnTo" value={returnTo} />
        {outbox.notice}
        <FormErrors errors={formErrors} id={form.errorId} />
        {clientError ? <FormErrors errors={[clientError]} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={meta("agentId")} label="Agent *">
            {agentSearch.search}
            <select
              {...fieldAria(meta("agentId"))}
              className="input"
              {...c("agentId")}
              defaultValue={text("agentId") ?? ""}
            >
              <option value="" disabled>
                Select an agent
              </option>
              {agentSearch.shown.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </Field>
          <Field meta={{ ...meta("clientId"), id: "client" }} label="Client">
            <input id="client" className="input" value={client?.name ?? "Not found"} readOnly disabled />
          </Field>
          <Field meta={meta("date")} label="Date *">
            <input
              {...fieldAria(meta("date"))}
              type="date"
              className="input"
              {...c("date")}
              defaultValue={text("date") ?? today}
            />
          </Field>
          <Field meta={meta("tons")} label="Tons *">
            <input
              {...fieldAria(meta("tons"))}
              type="number"
              inputMode="decimal"
              className="input"
              {...c("tons")}
              defaultValue={text("tons")}
            />
          </Field>
          <Field meta={meta("truckNo")} label="Truck No.">
            <input
              {...fieldAria(meta("truckNo"))}
              className="input"
              {...c("truckNo")}
              list="known-plates"
              autoCapitalize="characters"
              autoComplete="off"
              placeholder="LAG 123 XY"
              defaultValue={text("truckNo")}
            />
            <datalist id="known-plates">
              {plates.map((plate) => (
                <option key={plate} value={plate} />
              ))}
            </datalist>
          </Field>
          <Field meta={meta("location")} label="Location *">
            <input
              {...fieldAria(meta("location"))}
              className="input"
              {...c("location")}
              placeholder="Pick-up site"
              defaultValue={text("location")}
            />
          </Field>
          <Field meta={meta("logisticsCost")} label="Logistics cost (₦)" description={MONEY_HINT}>
            <MoneyInput
              {...fieldAria(meta("logisticsCost"), { description: true })}
              defaultValue={text("logisticsCost")}
            />
          </Field>
          <Field meta={meta("mobilizationPayment")} label="Mobilization payment (₦)" description={MONEY_HINT}>
            <MoneyInput
              {...fieldAria(meta("mobilizationPayment"), { description: true })}
              defaultValue={text("mobilizationPayment")}
            />
          </Field>
          <Field meta={meta("otherCosts")} label="Other costs (₦)" description={MONEY_HINT}>
            <MoneyInput {...fieldAria(meta("otherCosts"), { description: true })} defaultValue={text("otherCosts")} />
          </Field>
          <Field meta={meta("otherCostsDescription")} label="Other cost explanation">
            <input
              {...fieldAria(meta("otherCostsDescription"))}
              className="input"
              {...c("otherCostsDescription")}
              defaultValue={text("otherCostsDescription")}
            />
          </Field>
        </div>
        <LoadingTicketFields meta={meta} constraint={c} text={text} />
        {ratesPanel.html ? (
          <section aria-live="polite" aria-label="Rates that will apply" className="card space-y-2 p-3">
            <div dangerouslySetInnerHTML={{ __html: ratesPanel.html }} />
            {ratesPanel.hydrated ? null : (
              <button type="submit" formMethod="get" formNoValidate className="btn-outline btn-sm">
                Show rates
              </button>
            )}
          </section>
        ) : null}
        <Field meta={meta("remarks")} label="Remarks">
          <textarea
            {...fieldAria(meta("remarks"))}
            rows={2}
            className="input"
            {...c("remarks")}
            defaultValue={text("remarks")}
          />
        </Field>
        <SubmitButton pending={busy} pendingLabel="Saving..." className="btn-primary w-full" disabled={!client}>
          Record Delivery
        </SubmitButton>
      </Form>
    </Dialog>
  );
}

const FOLLOWED = ["agentId", "date", "location"];

/**
 * The rates panel (managers and admins), following the agent, pick-up site and date as they
 * change: the same server HTML, asked of `/deliveries/new/rates` a moment after the last change;
 * an answer overtaken by a later change is dropped. Without JavaScript, "Show rates" does it.
 */
function useRatesPanel(initial: string | null) {
  const [panel, setPanel] = useState(initial);
  const asked = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => setPanel(initial), [initial]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const follow = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (!initial || !FOLLOWED.includes(target.name)) return;
    const form = event.currentTarget;
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const turn = ++asked.current;
      const chosen = new FormData(form);
      const query = new URLSearchParams(FOLLOWED.map((name) => [name, String(chosen.get(name) ?? "")]));
      try {
        const response = await fetch(`/deliveries/new/rates?${query}`);
        if (response.status === 200 && turn === asked.current) setPanel(await response.text());
      } catch {
        // Offline: the panel keeps the last rates it had.
      }
    }, 300);
  };
  return { html: panel, follow, hydrated: useHydrated() };
}
