import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ShareScope } from "~/db.server";
import { createShareLink, listShareLinks, publicOrigin, SHARE_CAPABILITY } from "~/models/share-link.server";
import { requireUser } from "~/utils/auth.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";
import { assertCan } from "~/rules/capabilities.server";

const SCOPES: readonly string[] = Object.keys(SHARE_CAPABILITY);

// Share links (docs/decisions/1260). GET ?scope=&subjectId= lists a document's links, newest first
// (at most 50, the URL never again); who may see the document may list and make its links.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const scope = params.get("scope") ?? "";
  if (!SCOPES.includes(scope)) return jsonError(400, "Scope must be invoice, client-statement or agent-statement");
  const subjectId = parseId(params.get("subjectId"));
  if (subjectId === null) return jsonError(400, "subjectId must be an id");
  assertCan(user, SHARE_CAPABILITY[scope as ShareScope], `share-link/${scope}/${subjectId}`);
  return Response.json(await listShareLinks(user, scope as ShareScope, subjectId));
}

/** `{ scope, subjectId, expiresInDays? }` → 201 `{ id, url, expiresAt }`; the URL is shown this once. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireUser(request);
  const result = await createShareLink(user, await readJsonBody(request), publicOrigin(request));
  if (!result.ok) return failureJson(result);
  return Response.json({ id: result.id, url: result.url, expiresAt: result.expiresAt }, { status: 201 });
}
