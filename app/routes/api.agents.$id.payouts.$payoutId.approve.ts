import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { approveAgentPayout } from "~/services/agents/decide-payout.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed } from "~/utils/http.server";
import { payoutDecisionAction } from "~/utils/payout-decision-api.server";

// Approves a payout awaiting approval (docs/decisions/1250): another admin than its maker.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "agent.settle");
  return methodNotAllowed();
}

export const action = (args: ActionFunctionArgs) => payoutDecisionAction(args, approveAgentPayout);
