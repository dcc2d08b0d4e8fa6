import type { ActionFunctionArgs } from "@remix-run/node";
import { revokeShareLink } from "~/models/share-link.server";
import { requireUser } from "~/utils/auth.server";
import { methodNotAllowed, requireIdParam } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

// DELETE /api/share-links/{id} revokes a link (docs/decisions/1260): 200 with the link, revoked; a
// second DELETE answers the same and writes nothing.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed();
  const user = await requireUser(request);
  const result = await revokeShareLink(user, requireIdParam(params.id, "Share link not found"));
  if (!result.ok) return failureJson(result);
  return Response.json(result.link);
}

export function loader() {
  return methodNotAllowed();
}
