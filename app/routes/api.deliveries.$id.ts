import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getDelivery } from "~/models/delivery.server";
import { deleteDelivery, updateDelivery } from "~/models/delivery-changes.server";
import { parseId } from "~/utils/params";
import { jsonError, requireUser } from "~/utils/auth.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Delivery not found");
  const delivery = await getDelivery(user, id);
  return delivery ? Response.json(delivery) : jsonError(404, "Delivery not found");
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method === "PATCH") {
    const user = await requireCapability(request, "delivery.financials");
    const id = parseId(params.id);
    if (!id) return jsonError(404, "Delivery not found");
    const result = await updateDelivery(user, id, await readJsonBody(request));
    if (!result.ok) return failureJson(result);
    return Response.json(result.delivery);
  }
  if (request.method === "DELETE") {
    const user = await requireCapability(request, "delivery.admin");
    const id = parseId(params.id);
    if (!id) return jsonError(404, "Delivery not found");
    const result = await deleteDelivery(user, id);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true });
  }
  await requireUser(request);
  return methodNotAllowed();
}
