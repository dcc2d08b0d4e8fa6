import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { ErrorList, Field, fieldAria, FormErrors, InputField, SubmitButton } from "~/components/forms";
import { TICKET_KIND_LABEL, TicketSummary } from "~/components/deliveries/delivery-weights";
import { useIsPending } from "~/hooks/use-is-pending";
import { getDelivery, isInvoiced } from "~/models/delivery.server";
import { closedMonthReason, getClosedThrough, isInClosedMonth } from "~/models/period.server";
import { NO_CLIENT_TICKET_MESSAGE } from "~/models/ticket.server";
import { recentPlates } from "~/models/truck.server";
import { presentWeights } from "~/presenters/delivery-weights.server";
import { requireCapability } from "~/rules/capabilities.server";
import { MAX_ATTACHMENT_BYTES, photoRefusal } from "~/rules/images.server";
import { RecordTicketFormSchema, TICKET_FORM_CONSTRAINT } from "~/schemas/tickets";
import { INVOICED_TICKETS_MESSAGE, recordTicket } from "~/services/deliveries/record-ticket.server";
import { formatDate } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, requireIdParam } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { DELIVERY_LIST_PARAMS, keptSearch } from "~/utils/list-search";
import { formatTons } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";
import { fileBytes, readUploadForm } from "~/utils/upload.server";

// Record Ticket (docs/decisions/1220): the client's (received) ticket when it comes back, or a
// loading ticket the yard did not have. Over the deliveries list or Edit Delivery with
// JavaScript, a page of its own without; `?kind=` picks the ticket, `?back=edit` returns to Edit
// Delivery, and the list's filters and page ride along (decision 0200).
export const meta: MetaFunction = () => [{ title: "Record Ticket · Deliveries" }];

const PHOTO_TOO_LARGE = "The photo is larger than 2 MB";

/** Where the dialog was opened from, and its addresses: each kind's, and Close's. */
function addresses(id: number, url: URL) {
  const list = keptSearch(url.searchParams, DELIVERY_LIST_PARAMS);
  const back = url.searchParams.get("back") === "edit" ? "edit" : null;
  const kind = url.searchParams.get("kind") === "loading" ? ("loading" as const) : ("received" as const);
  const kindTo = (k: "loading" | "received") => {
    const params = new URLSearchParams(list);
    params.set("kind", k);
    if (back) params.set("back", back);
    return `/deliveries/${id}/tickets/new?${params}`;
  };
  const closeTo = back ? `/deliveries/${id}/edit${list}` : `/deliveries${list}`;
  return { kind, kindTo, closeTo };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "delivery.tickets");
  const id = requireIdParam(params.id, "Delivery not found");
  const url = new URL(request.url);
  const [delivery, plates, closedThrough] = await Promise.all([
    getDelivery(user, id),
    recentPlates(),
    getClosedThrough(),
  ]);
  invariantResponse(delivery, "Delivery not found");
  const { kind, kindTo, closeTo } = addresses(id, url);
  const weights = presentWeights(delivery, env().APP_TIME_ZONE);
  // What would refuse the ticket, said before anything is typed (the write says it again).
  const blocked = isInvoiced(delivery)
    ? INVOICED_TICKETS_MESSAGE
    : closedThrough && isInClosedMonth(delivery.date, closedThrough)
      ? closedMonthReason(closedThrough)
      : kind === "received" && delivery.clientId === null
        ? NO_CLIENT_TICKET_MESSAGE
        : null;
  return {
    delivery: {
      id: delivery.id,
      date: delivery.date,
      agentName: delivery.agentName,
      clientName: delivery.clientName,
      tons: delivery.tons,
    },
    kind,
    kinds: { received: kindTo("received"), loading: kindTo("loading") },
    closeTo,
    replaces: weights.tickets.find((t) => t.kind === kind) ?? null,
    blocked,
    plates,
    // One key per opened form: a double tap or a retry of the same submission replays it.
    idempotencyKey: crypto.randomUUID(),
    constraint: TICKET_FORM_CONSTRAINT,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "delivery.tickets");
  const id = requireIdParam(params.id, "Delivery not found");
  const upload = await readUploadForm(request, MAX_ATTACHMENT_BYTES);
  const formData = upload.formData ?? new FormData();
  const submission = parseWithZod(formData, { schema: RecordTicketFormSchema, disableAutoCoercion: true });
  const failed = (message: string) => `Failed to record ticket: ${message}`;
  // A photo over 2 MB was read to its end and dropped, the fields around it kept (decision 0705);
  // a photo that is not an image is refused here, before the write, with the form's own messages.
  const photo = upload.ok ? await fileBytes(formData.get("photo")) : null;
  const tooLong = upload.ok ? null : (upload.field ?? "");
  const photoProblem =
    tooLong === null ? photo && photoRefusal(photo) : tooLong === "photo" ? PHOTO_TOO_LARGE : "A field is far too long";
  if (photoProblem) {
    const field = tooLong === null || tooLong === "photo" ? "photo" : tooLong;
    return replyRefused(
      submission,
      { status: 400, message: photoProblem },
      { field, hideFields: ["photo"], formMessage: failed(photoProblem), always: true },
    );
  }
  const { idempotencyKey, photo: _photo, ...input } = Object.fromEntries(formData);
  const result = await recordTicket(user, id, input, photo, { idempotencyKey: keyOf(null, idempotencyKey) });
  if (!result.ok)
    return replyRefused(submission, result, {
      hideFields: ["photo"],
      formMessage: failed(result.message),
      always: true,
    });
  const delivery = await getDelivery(user, id);
  const { kind, closeTo } = addresses(id, new URL(request.url));
  const ticketNo = submission.status === "success" ? submission.value.ticketNo : "";
  const weights = !delivery
    ? undefined
    : kind === "received"
      ? `Received ${formatTons(delivery.receivedTons ?? "0")} t, accepted ${formatTons(delivery.acceptedTons ?? "0")} t`
      : `Loaded ${formatTons(delivery.tons)} t`;
  return redirectWithToast(closeTo, { title: `${TICKET_KIND_LABEL[kind]} ${ticketNo} recorded`, description: weights });
}

const NOTICE =
  "rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100";

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function RecordTicketRoute() {
  const { delivery, kind, kinds, closeTo, replaces, blocked, plates, idempotencyKey, constraint } =
    useLoaderData<typeof loader>();
  const pending = useIsPending();
  const [form, fields] = useForm<Record<string, string>>({
    lastResult: useActionData<typeof action>()?.result,
    constraint,
    defaultValue: { kind, ticketNo: "", truckNo: "", grossKg: "", tareKg: "", weighedAt: "", moisture: "" },
  });
  const { key: _plateKey, ...plateProps } = getInputProps(fields.truckNo, { type: "text" });
  const description = `${formatDate(delivery.date)} · ${delivery.agentName ?? "-"} · ${delivery.clientName ?? "No client"} · loaded ${formatTons(delivery.tons)} t`;
  return (
    <Dialog title="Record Ticket" description={description} closeTo={closeTo} size="md">
      <nav aria-label="Kind of ticket" className="mb-4 flex gap-2">
        {(["received", "loading"] as const).map((k) => (
          <Link
            key={k}
            to={kinds[k]}
            replace
            preventScrollReset
            aria-current={k === kind ? "page" : undefined}
            className={k === kind ? "btn-primary btn-sm" : "btn-outline btn-sm"}
          >
            {k === "received" ? "Client's ticket (received)" : "Loading ticket"}
          </Link>
        ))}
      </nav>
      {blocked ? (
        <div className="space-y-4">
          <p role="note" tabIndex={-1} data-autofocus className={NOTICE}>
            {blocked}
          </p>
          <div className="flex justify-end">
            <Link to={closeTo} className="btn-outline" preventScrollReset>
              Back
            </Link>
          </div>
        </div>
      ) : (
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
          <FormErrors errors={pending ? null : form.errors} id={form.errorId} />
          {replaces ? (
            <p role="note" className={NOTICE}>
              This replaces <TicketSummary ticket={replaces} />. The old ticket stays in the delivery&apos;s history.
            </p>
          ) : null}
          <input type="hidden" name="kind" value={kind} />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <ErrorList id={fields.kind.errorId} errors={pending ? null : fields.kind.errors} />
          <div className="grid gap-4 sm:grid-cols-2">
            <InputField
              meta={fields.ticketNo}
              label="Ticket number *"
              autoCapitalize="characters"
              autoComplete="off"
              hideErrors={pending}
            />
            <Field meta={fields.truckNo} label="Truck plate *" hideErrors={pending}>
              <input
                {...plateProps}
                className="input"
                list="ticket-plates"
                autoCapitalize="characters"
                autoComplete="off"
                placeholder="LAG 123 XY"
              />
              <datalist id="ticket-plates">
                {plates.map((plate) => (
                  <option key={plate} value={plate} />
                ))}
              </datalist>
            </Field>
            <InputField
              meta={fields.grossKg}
              label="Gross (kg) *"
              type="number"
              inputMode="numeric"
              hideErrors={pending}
            />
            <InputField
              meta={fields.tareKg}
              label="Tare (kg) *"
              type="number"
              inputMode="numeric"
              hideErrors={pending}
            />
            <Field meta={fields.weighedAt} label="Weighed at" hideErrors={pending}>
              <input
                {...fieldAria(fields.weighedAt)}
                type="datetime-local"
                className="input"
                defaultValue={fields.weighedAt.initialValue ?? ""}
              />
            </Field>
            {kind === "received" ? (
              <InputField
                meta={fields.moisture}
                label="Moisture (%)"
                type="number"
                inputMode="decimal"
                description="The client's reading; its quality rule deducts for moisture above its threshold."
                hideErrors={pending}
              />
            ) : null}
            <Field
              meta={fields.photo}
              label="Photo of the ticket"
              description="JPEG, PNG or WebP, at most 2 MB."
              className="sm:col-span-2"
              hideErrors={pending}
            >
              <input
                {...fieldAria(fields.photo, { description: true })}
                type="file"
                accept="image/jpeg,image/png,image/webp"
                capture="environment"
                className="block text-sm"
              />
            </Field>
          </div>
          <SubmitButton pending={pending} pendingLabel="Saving..." className="btn-primary w-full">
            {replaces ? "Replace Ticket" : "Record Ticket"}
          </SubmitButton>
        </Form>
      )}
    </Dialog>
  );
}
