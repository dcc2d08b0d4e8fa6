import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { creditNoteBatches, listCreditNotes, type CreditNoteFilters } from "~/presenters/credit-note-list.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { parseId, readPageRequest } from "~/utils/params";

// GET: newest first. With `limit`, one page and the next cursor (X-Next-Cursor, Link rel="next");
// without, every matching credit note, streamed. `invoiceId` narrows to one invoice.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "credit_note.create");
  const params = new URL(request.url).searchParams;
  const filters: CreditNoteFilters = {};
  const invoice = params.get("invoiceId");
  if (invoice) {
    const id = parseId(invoice);
    if (id === null) return jsonError(400, "The invoice id is not valid");
    filters.invoiceId = id;
  }
  const page = readPageRequest(params, "id");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(creditNoteBatches(user, filters));
  const result = await listCreditNotes(user, filters, { limit, page });
  return pageResponse(request, result.items, result.olderCursor);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}
