import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { bankLineBatches, bankLineJson, listBankLines, type BankLineView } from "~/presenters/bank-lines.server";
import { requireCapability } from "~/rules/capabilities.server";
import { parseBankLineFilters } from "~/schemas/bank-statement";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { readPageRequest } from "~/utils/params";

// Bank lines (docs/decisions/1241), newest first: `status` (unmatched, matched, not_receipt);
// each unmatched credit with its `proposals` ({ rule, fit, clientId, clientName, invoices }).
// `limit` and `cursor` give a page; without `limit` every line, streamed.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "bank.import");
  const params = new URL(request.url).searchParams;
  const { filters, invalid } = parseBankLineFilters(params);
  if (invalid) return jsonError(400, invalid);
  const page = readPageRequest(params, "date");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(viewBatches(bankLineBatches(user, filters)));
  const result = await listBankLines(user, filters, { limit, page });
  return pageResponse(request, result.items.map(bankLineJson), result.olderCursor);
}

async function* viewBatches(batches: AsyncIterable<BankLineView[]>) {
  for await (const batch of batches) yield batch.map(bankLineJson);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireCapability(request, "bank.import");
  return methodNotAllowed();
}
