import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getInvoiceDetail } from "~/presenters/invoice-page.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { parseId, readPageRequest } from "~/utils/params";

// The invoice page's data as JSON. Its deliveries are one keyset page (`cursor` / `before`,
// the next in `lines.olderCursor`); payments and credit notes the newest 50 with their counts.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.view");
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Invoice not found");
  const linesPage = readPageRequest(new URL(request.url).searchParams, "date");
  if (linesPage.invalid) return jsonError(400, "The cursor is not valid");
  const invoice = await getInvoiceDetail(user, id, { linesPage });
  return invoice ? Response.json(invoice) : jsonError(404, "Invoice not found");
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}
