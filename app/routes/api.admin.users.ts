import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createUserByAdmin, listUsers } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "user.manage");
  return Response.json(await listUsers(user));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "user.manage");
  if (request.method !== "POST") return methodNotAllowed();
  const result = await createUserByAdmin(user, await readJsonBody(request));
  if (!result.ok) return failureJson(result);
  return Response.json({ ...result.user, temporaryPassword: result.temporaryPassword }, { status: 201 });
}
