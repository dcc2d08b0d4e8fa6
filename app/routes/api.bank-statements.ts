import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { importStatement, listBankAccounts } from "~/models/bank-statement.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";
import { readStatementUpload } from "~/utils/statement-upload.server";

// Bank statements (docs/decisions/1241). POST multipart/form-data: `file` (the CSV, at most 2 MB
// and 10,000 lines), `bankAccountId` or `accountName` (a new account), optional `accountNo`, and
// the mapping: `dateColumn`, `dateFormat`, `narrationColumn`, `referenceColumn?`, `amountStyle`
// ("signed" with `amountColumn`, or "split" with `creditColumn` and `debitColumn?`), saved on the
// account. 201 { statementId, bankAccountId, linesRead, linesAdded, duplicates, skipped }.
// GET: the bank accounts with their saved mappings.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "bank.import");
  return Response.json(await listBankAccounts(user));
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "bank.import");
  const upload = await readStatementUpload(request);
  if (!upload.ok) return failureJson(upload);
  const result = await importStatement(user, upload.fields, upload.file);
  if (!result.ok) return failureJson(result);
  const { ok: _ok, ...body } = result;
  return Response.json(body, { status: 201 });
}
