import type { LoaderFunctionArgs } from "@remix-run/node";
import { dueReminders } from "~/models/reminders.server";
import { publicOrigin } from "~/models/share-link.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { badLimit, pageResponse, readLimit } from "~/utils/json-list.server";
import { parseId } from "~/utils/params";

// GET /api/reminders/due (docs/decisions/1260): per client with something due today
// `{ clientId, level, invoices, message, whatsappUrl }`, by client id, a page of 50 (or `limit`)
// with the next cursor in X-Next-Cursor and Link rel="next". The statement link in the message
// opens once the send is recorded (POST /api/reminders/sent).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const params = new URL(request.url).searchParams;
  const cursor = params.get("cursor");
  const after = cursor === null ? 0 : parseId(cursor);
  if (after === null) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  const page = await dueReminders(user, {
    origin: publicOrigin(request),
    now: new Date(),
    after,
    ...(limit === null ? {} : { limit }),
  });
  const items = page.items.map((r) => ({
    clientId: r.clientId,
    clientName: r.clientName,
    level: r.level,
    invoices: r.invoices.map((i) => ({
      id: i.id,
      invoiceNo: i.invoiceNo,
      balance: i.balance,
      dueDate: i.dueDate,
      level: i.level,
    })),
    message: r.message,
    whatsappUrl: r.whatsappUrl,
    email: r.email,
  }));
  return pageResponse(request, items, page.nextCursor === null ? null : String(page.nextCursor));
}
