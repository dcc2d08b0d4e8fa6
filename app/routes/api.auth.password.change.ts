import type { ActionFunctionArgs } from "@remix-run/node";
import { changeOwnPassword } from "~/models/password.server";
import { getCurrent, requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireUser(request, { allowPasswordChange: true });
  const body = await readJsonBody(request);
  const current = await getCurrent(request);
  const result = await changeOwnPassword(user, body, current?.session.sid ?? null);
  if (!result.ok) return failureJson(result);
  return Response.json({ message: "Password changed successfully" });
}

export const loader = () => methodNotAllowed();
