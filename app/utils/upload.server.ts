// Forms with a file (the business logo): read with Remix's multipart parser into memory. A
// text part over the limit stops the read; a file over it is read to its end and dropped, so
// the fields around it are kept and the form can show them again. The server refuses a body
// over 16 MB on these paths before it is read (server/body-limit.js, decision 0705), so that
// is the most a dropped file can cost.
import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { readForm, unreadableForm } from "~/utils/http.server";

type UploadForm =
  | { ok: true; formData: FormData }
  /** `formData`: the other fields, when only a file was over the limit (else null). */
  | { ok: false; field: string | null; formData: FormData | null };

/**
 * The form of a post that may carry a file of at most `maxBytes`. A plain (urlencoded) form is
 * read as usual; a part over the limit answers `{ ok: false, field }` with that part's name.
 */
export async function readUploadForm(request: Request, maxBytes: number): Promise<UploadForm> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return { ok: true, formData: await readForm(request) };
  let oversized: string | null = null;
  const text = unstable_createMemoryUploadHandler({ maxPartSize: maxBytes });
  // One handler, not composed ones: a composed chain would pass a dropped file on to the next
  // handler, which would append it again as an empty file.
  const handler: UploadHandler = async (part) => {
    if (!part.filename) return text(part);
    const chunks: BlobPart[] = [];
    let size = 0;
    for await (const chunk of part.data) {
      size += chunk.byteLength;
      // The parser's chunks are views of plain ArrayBuffers, never shared ones.
      if (size <= maxBytes) chunks.push(chunk as Uint8Array<ArrayBuffer>);
    }
    if (size <= maxBytes) return new File(chunks, part.filename, { type: part.contentType });
    oversized ??= part.name;
    return undefined;
  };
  try {
    const formData = await unstable_parseMultipartFormData(request, handler);
    return oversized ? { ok: false, field: oversized, formData } : { ok: true, formData };
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { ok: false, field: error.field, formData: null };
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
