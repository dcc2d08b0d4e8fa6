import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listPayments, recordPayment } from "~/models/payment.server";
import { jsonError, requireRole } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  return Response.json(await listPayments());
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireRole(request, ["manager", "admin"]);
  const result = await recordPayment(user, await readJsonBody(request));
  if (!result.ok) return jsonError(result.status, result.message, { errors: result.fieldErrors });
  return Response.json({ ...result.payment, createdAt: result.payment.createdAt.toISOString(), paymentStatus: result.paymentStatus, amountPaid: result.amountPaid }, { status: 201 });
}
