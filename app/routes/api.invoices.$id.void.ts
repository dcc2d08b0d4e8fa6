import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getInvoice } from "~/presenters/invoice-list.server";
import { voidInvoice } from "~/services/invoices/void-invoice.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// POST {reason}: 200 with the void invoice and `freedDeliveries` (how many it freed, the first and
// last id: a month's invoice frees thousands); 409 once it has payments or credit notes (issue a
// credit note instead) or is already void; 400 without a reason.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "invoice.void");
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Invoice not found");
  const result = await voidInvoice(user, id, await readJsonBody(request));
  if (!result.ok) return failureJson(result);
  return Response.json({ ...(await getInvoice(user, id)), freedDeliveries: result.freedDeliveries });
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}
