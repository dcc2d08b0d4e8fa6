import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { ConfirmFooter } from "~/components/forms";
import { Dialog, NoticeDialog } from "~/components/dialog";
import { deleteDelivery, getDelivery, invoiceNumberOf, isInvoiced } from "~/models/delivery.server";
import { parseId } from "~/utils/params";
import { requireCapability } from "~/rules/capabilities.server";
import { formatDeliveryDate } from "~/utils/dates";
import { invariantResponse } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete Delivery · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "delivery.admin");
  const id = parseId(params.id);
  invariantResponse(id, "Delivery not found");
  const delivery = await getDelivery(user, id);
  invariantResponse(delivery, "Delivery not found");
  return { delivery, invoiceNo: isInvoiced(delivery) ? ((await invoiceNumberOf(delivery.invoiceId)) ?? "") : null };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "delivery.admin");
  const id = parseId(params.id);
  invariantResponse(id, "Delivery not found");
  const result = await deleteDelivery(user, id);
  if (!result.ok) {
    return redirectWithToast(`/deliveries/${id}/edit`, {
      title: "Failed to delete delivery",
      description: result.message,
      variant: "destructive",
    });
  }
  return redirectWithToast("/deliveries", { title: "Delivery deleted successfully" });
}

export default function DeleteDeliveryRoute() {
  const { delivery, invoiceNo } = useLoaderData<typeof loader>();
  if (invoiceNo !== null) {
    return (
      <NoticeDialog title="Cannot delete this delivery" closeTo={`/deliveries/${delivery.id}/edit`}>
        It is invoiced on Invoice #{invoiceNo}; invoiced deliveries are kept.
      </NoticeDialog>
    );
  }
  return (
    <Dialog title="Are you sure?" closeTo={`/deliveries/${delivery.id}/edit`} size="sm">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        This will delete this delivery record. This action cannot be undone; the delivery&apos;s last state is kept in
        the audit trail.
      </p>
      <p className="mt-2 text-sm">
        {formatDeliveryDate(delivery.date)} · {delivery.agentName} · {delivery.tons} tons
      </p>
      <Form method="post" className="mt-4">
        <ConfirmFooter cancelTo={`/deliveries/${delivery.id}/edit`} confirmLabel="Delete" pendingLabel="Deleting..." />
      </Form>
    </Dialog>
  );
}
