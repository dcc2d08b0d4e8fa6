import type { Failure } from "~/utils/result";

export type DirectoryFailure = Failure<400 | 403 | 404 | 409>;

/** PostgreSQL's unique_violation, from postgres.js or PGlite (which may wrap it). */
export function isUniqueViolation(error: unknown) {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return String(e?.code ?? e?.cause?.code) === "23505";
}

/** A name already taken (ignoring case and surrounding spaces): 409, said under the name field. */
export function duplicateName(kind: "agent" | "client", name: string): DirectoryFailure {
  const message = `${kind === "agent" ? "An agent" : "A client"} named "${name}" already exists. Choose a different name.`;
  return { ok: false, status: 409, message, fieldErrors: { name: [message] } };
}
