import type { ActionFunctionArgs } from "@remix-run/node";
import { recordReminderSent } from "~/models/reminders.server";
import { publicOrigin } from "~/models/share-link.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

// POST /api/reminders/sent `{ clientId, channel, invoiceIds }` (docs/decisions/1260): records a
// reminder sent outside the app (a WhatsApp message). 201 when recorded; a repeat is a 200 with
// `alreadySent: true` and records nothing.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "client.statement");
  const result = await recordReminderSent(user, await readJsonBody(request), {
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
