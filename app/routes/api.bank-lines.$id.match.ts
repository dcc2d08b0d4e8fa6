import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { receiptJson } from "~/presenters/receipts.server";
import { requireCapability } from "~/rules/capabilities.server";
import { matchBankLine } from "~/services/bank/match-bank-line.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Confirm a bank line's match (docs/decisions/1241). POST { clientId, invoiceIds? }: the receipt of
// the line's credit from that client over those invoices in order (then its oldest due), and the
// line matched to it: 201 { lineId, status, receipt }, 200 on a replay of the same
// Idempotency-Key; 409 when the line is matched or marked already.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "bank.import");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "bank.import");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Bank line not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await matchBankLine(user, id, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(
    { lineId: result.lineId, status: "matched", receipt: receiptJson(result.receipt) },
    { status: result.replayed ? 200 : 201 },
  );
}
