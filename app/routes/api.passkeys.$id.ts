import type { ActionFunctionArgs } from "@remix-run/node";
import { deletePasskey } from "~/models/passkey.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "DELETE") return methodNotAllowed();
  if (!(await deletePasskey(user.id, Number(params.id)))) return jsonError(404, "Passkey not found");
  return Response.json({ message: "Passkey deleted successfully" });
}

export const loader = () => methodNotAllowed();
