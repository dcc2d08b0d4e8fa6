import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { ConfirmFooter } from "~/components/forms";
import { cardWords, deleteRateCard, getRateCard } from "~/models/rate-card.server";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse, requireIdParam } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

// Delete Card (docs/decisions/1230): only a card no delivery has used; a used one is refused and
// the toast says why.
export const meta: MetaFunction = () => [{ title: "Delete Rate Card · Rates" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "rate.manage");
  const card = await getRateCard(requireIdParam(params.id, "Rate card not found"));
  invariantResponse(card, "Rate card not found");
  return { words: cardWords(card) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "rate.manage");
  const id = requireIdParam(params.id, "Rate card not found");
  const result = await deleteRateCard(user, id);
  const back = `/rates${new URL(request.url).search}`;
  if (!result.ok)
    return redirectWithToast(back, {
      title: "Failed to delete card",
      description: result.message,
      variant: "destructive",
    });
  return redirectWithToast(back, { title: "Rate card deleted" });
}

export default function DeleteRateCard() {
  const { words } = useLoaderData<typeof loader>();
  const cancelTo = `/rates${useLocation().search}`;
  return (
    <Dialog title="Delete Rate Card" closeTo={cancelTo} size="sm">
      <Form method="post" className="space-y-4">
        <p className="text-sm">
          Delete {words}? Only a card no delivery has used can be deleted; a used card stays, and a card from a later
          date replaces it.
        </p>
        <ConfirmFooter cancelTo={cancelTo} confirmLabel="Delete Card" pendingLabel="Deleting..." />
      </Form>
    </Dialog>
  );
}
