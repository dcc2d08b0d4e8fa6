import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createUserByAdmin, listUsers } from "~/models/admin-users.server";
import { jsonError, requireRole } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["admin"]);
  return Response.json(await listUsers());
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ["admin"]);
  if (request.method !== "POST") return methodNotAllowed();
  const result = await createUserByAdmin(await readJsonBody(request));
  if (!result.ok) return jsonError(result.status, result.message, result.fieldErrors ? { errors: result.fieldErrors } : undefined);
  return Response.json({ ...result.user, temporaryPassword: result.temporaryPassword }, { status: 201 });
}
