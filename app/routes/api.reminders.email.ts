import type { ActionFunctionArgs } from "@remix-run/node";
import { emailReminder } from "~/models/reminders.server";
import { publicOrigin } from "~/models/share-link.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

// POST /api/reminders/email `{ clientId }` (docs/decisions/1260): e-mails the client's reminder due
// today and records it. Without SMTP, or when the mail server does not take it: 503 with
// Retry-After, nothing recorded. Nothing due: 409. Sent already today: 200 `alreadySent`.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "client.statement");
  const result = await emailReminder(user, await readJsonBody(request), {
    origin: publicOrigin(request),
    now: new Date(),
  });
  if (!result.ok) return failureJson(result);
  const { sendId, recorded, alreadySent } = result;
  return Response.json({ sendId, recorded, alreadySent }, { status: alreadySent ? 200 : 201 });
}

export function loader() {
  return methodNotAllowed();
}
