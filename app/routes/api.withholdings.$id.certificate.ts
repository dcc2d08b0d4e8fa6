import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireCapability } from "~/rules/capabilities.server";
import { recordCertificate } from "~/services/receipts/record-certificate.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// A withholding's certificate (docs/decisions/1240). POST { certificateNo, receivedOn }: 201 with
// the certificate, 200 on a replay of the same Idempotency-Key; 409 when one is recorded already.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "payment.record");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "payment.record");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Withholding not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await recordCertificate(user, id, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  const { certificate } = result;
  return Response.json(
    { ...certificate, createdAt: certificate.createdAt.toISOString() },
    { status: result.replayed ? 200 : 201 },
  );
}
