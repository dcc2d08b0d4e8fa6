// Forms with a file (the business logo): read with Remix's multipart parser into memory, with
// each part capped, so an oversized upload is refused while it streams in, never buffered whole.
import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { readForm, unreadableForm } from "~/utils/http.server";

export type UploadForm = { ok: true; formData: FormData } | { ok: false; field: string | null };

/**
 * The form of a post that may carry a file of at most `maxBytes`. A plain (urlencoded) form is
 * read as usual; a part over the limit answers `{ ok: false, field }` with that part's name.
 */
export async function readUploadForm(request: Request, maxBytes: number): Promise<UploadForm> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return { ok: true, formData: await readForm(request) };
  try {
    const formData = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: maxBytes }),
    );
    return { ok: true, formData };
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { ok: false, field: error.field };
    // A multipart body that does not parse (no boundary, cut short) is the client's mistake.
    if (request.signal.aborted) throw error;
    throw unreadableForm(request, 400);
  }
}

/** The bytes of a chosen file, or null when the field holds no file (nothing was chosen). */
export async function fileBytes(value: FormDataEntryValue | null): Promise<Uint8Array | null> {
  if (!value || typeof value === "string" || value.size === 0) return null;
  return new Uint8Array(await value.arrayBuffer());
}
