import type { ActionFunctionArgs } from "@remix-run/node";
import { switchOwnRole } from "~/models/admin-users.server";
import { toPublicUser } from "~/models/user.server";
import { requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "PATCH") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await switchOwnRole(user, params.id ?? "", body.role);
  if (!result.ok) return failureJson(result);
  return Response.json(toPublicUser(result.user));
}

export const loader = () => methodNotAllowed();
