import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { AgentForm } from "~/components/directory/directory-forms";
import { Dialog } from "~/components/dialog";
import { listSearch, listUrlOf } from "~/components/directory/list-url";
import { OwnerRateCards } from "~/components/rates/rate-cards-table";
import { getAgent, updateAgent } from "~/models/agent.server";
import { cardsNaming } from "~/models/rate-card.server";
import { AGENT_FORM_CONSTRAINT, AgentFormSchema } from "~/schemas/directory";
import { can, requireCapability } from "~/rules/capabilities.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm, requireIdParam } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

/** The newest cards naming the agent its dialog shows; Rates has them all. */
const CARDS_SHOWN = 10;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const agent = await getAgent(requireIdParam(params.id, "Agent not found"));
  invariantResponse(agent, "Agent not found");
  const { id: agentId, name, contact, phone, bankName, bankAccountName, bankAccountNo, payBasis } = agent;
  const { whatsappNumber, email, remindersOff } = agent;
  return {
    agent: {
      ...{ id: agentId, name, contact, phone, bankName, bankAccountName, bankAccountNo, payBasis },
      ...{ whatsappNumber, email, remindersOff },
    },
    constraint: AGENT_FORM_CONSTRAINT,
    // The manager's page of an agent is this dialog: it lists the agent's rate cards (decision 1230).
    rateCards: can(user, "rate.view") ? await cardsNaming(user, { agentId }, { limit: CARDS_SHOWN }) : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const id = requireIdParam(params.id, "Agent not found");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: AgentFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return replyInvalid(submission);
  // An unticked checkbox posts nothing: the form says "reminders on" then (docs/decisions/1260).
  const form = { ...Object.fromEntries(formData), remindersOff: formData.get("remindersOff") ?? false };
  const result = await updateAgent(user, id, form);
  if (!result.ok) return replyRefused(submission, result, { formMessage: `Failed to update agent: ${result.message}` });
  return redirectWithToast(listUrlOf("/agents", request.url), { title: "Agent updated successfully" });
}

export default function EditAgent() {
  const { agent, constraint, rateCards } = useLoaderData<typeof loader>();
  return (
    <Dialog title="Edit Agent" closeTo={`/agents${listSearch(useLocation().search)}`} size="sm">
      <AgentForm
        lastResult={useActionData<typeof action>()?.result}
        constraint={constraint}
        defaultValue={agent}
        submitLabel="Save Changes"
      />
      {rateCards ? (
        <OwnerRateCards
          owner={{ kind: "agent", id: agent.id }}
          cards={rateCards.items}
          heading={`Rate cards naming ${agent.name}${rateCards.more ? ` (the newest ${CARDS_SHOWN})` : ""}`}
          level="h3"
        />
      ) : null}
    </Dialog>
  );
}
