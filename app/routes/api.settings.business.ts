import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadBusinessDetails, updateBusinessDetails, type LogoChange } from "~/models/business.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { LOGO_MAX_BYTES, LOGO_TOO_LARGE } from "~/utils/logo.server";
import { failureJson } from "~/utils/result.server";
import { fileBytes, readUploadForm } from "~/utils/upload.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "settings.manage");
  return Response.json(await loadBusinessDetails(user));
}

// PUT: every field (a missing one is cleared), as JSON (the logo kept, or `"removeLogo": true`)
// or multipart/form-data with the logo file in `logo`, as the Business Details form posts.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed();
  const user = await requireCapability(request, "settings.manage");
  let input: Record<string, unknown>;
  let logo: LogoChange = { kind: "keep" };
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    const upload = await readUploadForm(request, LOGO_MAX_BYTES);
    if (!upload.ok) return jsonError(400, upload.field === "logo" ? LOGO_TOO_LARGE : "A field is far too long");
    input = Object.fromEntries(upload.formData);
    const bytes = await fileBytes(upload.formData.get("logo"));
    if (bytes) logo = { kind: "replace", bytes };
    else if (upload.formData.get("removeLogo") === "on") logo = { kind: "remove" };
  } else {
    input = await readJsonBody(request);
    if (input.removeLogo === true) logo = { kind: "remove" };
  }
  const result = await updateBusinessDetails(user, input, logo);
  if (!result.ok) return failureJson(result);
  return Response.json(result.details);
}
