import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadSystemSettings, updateSettings } from "~/models/settings.server";
import { requireRole } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["admin"]);
  return Response.json(await loadSystemSettings());
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed();
  const user = await requireRole(request, ["admin"]);
  const result = await updateSettings(await readJsonBody(request), user.id);
  if (!result.ok) return failureJson(result);
  return Response.json(result.settings);
}
