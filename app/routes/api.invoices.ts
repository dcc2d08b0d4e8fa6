import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createInvoiceForDelivery, getInvoice, listInvoices } from "~/models/invoice.server";
import { jsonError, requireRole } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { parseId } from "~/utils/params";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  const params = new URL(request.url).searchParams;
  const clientId = params.get("clientId") ? parseId(params.get("clientId")) : null;
  if (params.get("clientId") && clientId === null) return jsonError(400, "The client id is not valid");
  const invoices = await listInvoices({
    status: params.get("status"),
    clientId,
    from: params.get("from"),
    to: params.get("to"),
  });
  return Response.json(invoices);
}

// Only deliveryId (and optionally a free numeric invoiceNo) is taken from the body: amount,
// profit, tax rate and dates are recomputed from the database.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireRole(request, ["manager", "admin"]);
  const body = await readJsonBody(request);
  const result = await createInvoiceForDelivery(user, { deliveryId: body.deliveryId, invoiceNo: body.invoiceNo });
  if (!result.ok) return jsonError(result.status, result.message, { errors: result.fieldErrors });
  return Response.json(await getInvoice(result.invoice.id), { status: 201 });
}
