// A bank statement as posted (docs/decisions/1241): a multipart form with the CSV as `file` and
// the account and mapping as fields, from the Bank statement page or POST /api/bank-statements.
// The file is kept only up to the limit; a larger one is read to its end and dropped, so the
// answer names the limit rather than the server cutting the request off (decision 0705).
import { MAX_STATEMENT_BYTES } from "~/rules/bank-statement.server";
import { fail, type Failure } from "~/utils/result";
import { fileBytes, readUploadForm } from "~/utils/upload.server";

export const STATEMENT_TOO_LARGE = `The file is over ${MAX_STATEMENT_BYTES / 1024 / 1024} MB: split the statement by dates`;

export type StatementUpload = {
  ok: true;
  fields: Record<string, string>;
  file: { name: string; text: string };
  formData: FormData;
};

export async function readStatementUpload(
  request: Request,
): Promise<StatementUpload | (Failure & { formData: FormData | null })> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data"))
    return { ...fail(415, "Send the statement as multipart/form-data with the CSV file as `file`"), formData: null };
  const form = await readUploadForm(request, MAX_STATEMENT_BYTES);
  if (!form.ok) return { ...fail(413, STATEMENT_TOO_LARGE, { file: [STATEMENT_TOO_LARGE] }), formData: form.formData };
  const fields: Record<string, string> = {};
  for (const [name, value] of form.formData) if (typeof value === "string") fields[name] = value;
  const entry = form.formData.get("file");
  const bytes = await fileBytes(entry);
  if (!bytes)
    return { ...fail(400, "Choose the CSV file to import", { file: ["Choose a CSV file"] }), formData: form.formData };
  const name = entry && typeof entry !== "string" ? entry.name : "statement.csv";
  return { ok: true, fields, file: { name, text: new TextDecoder().decode(bytes) }, formData: form.formData };
}
