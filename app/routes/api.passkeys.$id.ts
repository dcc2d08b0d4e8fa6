import type { ActionFunctionArgs } from "@remix-run/node";
import { deletePasskey } from "~/models/passkey.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { parseId } from "~/utils/params";
import { methodNotAllowed } from "~/utils/http.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "DELETE") return methodNotAllowed();
  if (!(await deletePasskey(user.id, parseId(params.id) ?? 0))) return jsonError(404, "Passkey not found");
  return Response.json({ message: "Passkey deleted successfully" });
}

export const loader = () => methodNotAllowed();
