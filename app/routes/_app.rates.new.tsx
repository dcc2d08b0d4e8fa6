import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { FormErrors, InputField, MoneyField, SelectField, SubmitButton, useChoiceSearch } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { listAgentChoices } from "~/models/agent.server";
import { listClientChoices } from "~/models/client.server";
import { closedMonthReason, getClosedThrough } from "~/models/period.server";
import { createRateCard } from "~/models/rate-card.server";
import { requireCapability } from "~/rules/capabilities.server";
import { RateCardFormSchema, rateCardFormConstraint } from "~/schemas/rate-cards";
import { RATE_CARD_KINDS, RATE_KIND_LABELS } from "~/utils/rate-kinds";
import { formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { readForm } from "~/utils/http.server";
import { formatNaira } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";

// Add Card (docs/decisions/1230): over the Rates page with JavaScript, a page of its own without.
export const meta: MetaFunction = () => [{ title: "Add Rate Card · Rates" }];

const backTo = (url: string) => `/rates${new URL(url).search}`;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "rate.manage");
  const [clients, agents, closedThrough] = await Promise.all([
    listClientChoices(),
    listAgentChoices(),
    getClosedThrough(),
  ]);
  return {
    clients,
    agents,
    today: todayIn(env().APP_TIME_ZONE),
    closedNote: closedThrough ? closedMonthReason(closedThrough) : null,
    constraint: rateCardFormConstraint(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "rate.manage");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: RateCardFormSchema, disableAutoCoercion: true });
  // The write has rules of its own (a closed month, a tie): it always has the last word.
  const result = await createRateCard(user, Object.fromEntries(formData));
  if (!result.ok) return replyRefused(submission, result, { formMessage: `Failed to add card: ${result.message}` });
  const { card } = result;
  return redirectWithToast(backTo(request.url), {
    title: "Rate card added",
    description: `${RATE_KIND_LABELS[card.kind]} ${formatNaira(card.rate)} from ${formatDate(card.validFrom)}`,
  });
}

export default function AddRateCard() {
  const { clients, agents, today, closedNote, constraint } = useLoaderData<typeof loader>();
  const pending = useIsPending();
  const closeTo = `/rates${useLocation().search}`;
  const [form, fields] = useForm<Record<"kind" | "rate" | "validFrom" | "clientId" | "agentId" | "site", string>>({
    lastResult: useActionData<typeof action>()?.result,
    constraint,
    defaultValue: { validFrom: today, kind: "", rate: "", clientId: "", agentId: "", site: "" },
  });
  const clientSearch = useChoiceSearch(clients, "clientId", "clients");
  const agentSearch = useChoiceSearch(agents, "agentId", "agents");
  return (
    <Dialog
      title="Add Rate Card"
      description="It holds from its date until the next card of the same kind naming the same client, agent and site."
      closeTo={closeTo}
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={pending ? null : form.errors} id={form.errorId} />
        <SelectField meta={fields.kind} label="Kind *">
          <option value="" disabled>
            Select a kind
          </option>
          {RATE_CARD_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {RATE_KIND_LABELS[kind]}
            </option>
          ))}
        </SelectField>
        <MoneyField
          meta={fields.rate}
          label="Rate (₦) *"
          description="Per ton; offloading is per delivery, as in System Settings."
        />
        <InputField
          meta={fields.validFrom}
          label="Valid from *"
          type="date"
          description={closedNote ?? "A card never changes: a new card from a later date replaces it."}
        />
        <SelectField meta={fields.clientId} label="Client" search={clientSearch.search}>
          <option value="">Any client</option>
          {clientSearch.shown.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField meta={fields.agentId} label="Agent" search={agentSearch.search}>
          <option value="">Any agent</option>
          {agentSearch.shown.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </SelectField>
        <InputField
          meta={fields.site}
          label="Pick-up site"
          description="Matched to a delivery's location whatever its capitals and spaces. Blank: any site."
        />
        <SubmitButton pending={pending} pendingLabel="Saving..." className="btn-primary w-full">
          Add Card
        </SubmitButton>
      </Form>
    </Dialog>
  );
}
