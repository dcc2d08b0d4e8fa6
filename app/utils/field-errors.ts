// The one place zod issues become field errors (decision 0800): a field -> messages map keyed by
// the issue's first path segment, and the first message for the top of the form. Forms on
// Conform get the same shape from `submission.reply()`; models answering JSON and HTML use this.
import type { FieldErrors } from "./result";

type Issue = { path: PropertyKey[]; message: string };

export function fieldErrorsOf(error: { issues: Issue[] }): { fieldErrors: FieldErrors; message: string } {
  const fieldErrors: FieldErrors = {};
  for (const issue of error.issues) (fieldErrors[String(issue.path[0] ?? "")] ??= []).push(issue.message);
  return { fieldErrors, message: error.issues[0]?.message ?? "Invalid input" };
}
