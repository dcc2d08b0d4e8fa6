import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { rejectAgentPayout } from "~/services/agents/decide-payout.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed } from "~/utils/http.server";
import { payoutDecisionAction } from "~/utils/payout-decision-api.server";

// Rejects a payout awaiting approval with a reason (docs/decisions/1250): it counts for nothing.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "agent.settle");
  return methodNotAllowed();
}

export const action = (args: ActionFunctionArgs) => payoutDecisionAction(args, rejectAgentPayout);
