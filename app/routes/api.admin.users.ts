import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createUserByAdmin, listUsers } from "~/models/admin-users.server";
import { requireRole } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["admin"]);
  return Response.json(await listUsers());
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ["admin"]);
  if (request.method !== "POST") return methodNotAllowed();
  const result = await createUserByAdmin(await readJsonBody(request));
  if (!result.ok) return failureJson(result);
  return Response.json({ ...result.user, temporaryPassword: result.temporaryPassword }, { status: 201 });
}
