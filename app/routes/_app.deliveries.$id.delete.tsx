import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { ConfirmFooter } from "~/components/forms";
import { Dialog, NoticeDialog } from "~/components/dialog";
import { getDelivery, invoiceNumberOf, isInvoiced } from "~/models/delivery.server";
import { deleteDelivery } from "~/models/delivery-changes.server";
import { DELIVERY_LIST_PARAMS, keptSearch } from "~/utils/list-search";
import { closedMonthReason, getClosedThrough, isInClosedMonth } from "~/models/period.server";
import { parseId } from "~/utils/params";
import { requireCapability } from "~/rules/capabilities.server";
import { formatDate } from "~/utils/dates";
import { invariantResponse } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete Delivery · Management" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "delivery.admin");
  const id = parseId(params.id);
  invariantResponse(id, "Delivery not found");
  const [delivery, closedThrough] = await Promise.all([getDelivery(user, id), getClosedThrough()]);
  invariantResponse(delivery, "Delivery not found");
  return {
    delivery,
    invoiceNo: isInvoiced(delivery) ? ((await invoiceNumberOf(delivery.invoiceId)) ?? "") : null,
    closedReason:
      closedThrough && isInClosedMonth(delivery.date, closedThrough) ? closedMonthReason(closedThrough) : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "delivery.admin");
  const id = parseId(params.id);
  invariantResponse(id, "Delivery not found");
  const result = await deleteDelivery(user, id);
  // Back to the list's filters and page the dialog was opened on.
  const list = keptSearch(new URL(request.url).searchParams, DELIVERY_LIST_PARAMS);
  if (!result.ok) {
    return redirectWithToast(`/deliveries/${id}/edit${list}`, {
      title: "Failed to delete delivery",
      description: result.message,
      variant: "destructive",
    });
  }
  return redirectWithToast(`/deliveries${list}`, { title: "Delivery deleted successfully" });
}

export default function DeleteDeliveryRoute() {
  const { delivery, invoiceNo, closedReason } = useLoaderData<typeof loader>();
  const editUrl = `/deliveries/${delivery.id}/edit${keptSearch(useLocation().search, DELIVERY_LIST_PARAMS)}`;
  if (closedReason) {
    return (
      <NoticeDialog title="Cannot delete this delivery" closeTo={editUrl}>
        {closedReason}
      </NoticeDialog>
    );
  }
  if (invoiceNo !== null) {
    return (
      <NoticeDialog title="Cannot delete this delivery" closeTo={editUrl}>
        It is invoiced on Invoice #{invoiceNo}; invoiced deliveries are kept.
      </NoticeDialog>
    );
  }
  return (
    <Dialog title="Are you sure?" closeTo={editUrl} size="sm">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        This will delete this delivery record. This action cannot be undone; the delivery&apos;s last state is kept in
        the audit trail.
      </p>
      <p className="mt-2 text-sm">
        {formatDate(delivery.date)} · {delivery.agentName} · {delivery.tons} tons
      </p>
      <Form method="post" className="mt-4">
        <ConfirmFooter cancelTo={editUrl} confirmLabel="Delete" pendingLabel="Deleting..." />
      </Form>
    </Dialog>
  );
}
