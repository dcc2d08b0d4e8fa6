import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadSystemSettings, updateSettings } from "~/models/settings.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "settings.manage");
  return Response.json(await loadSystemSettings(user));
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed();
  const user = await requireCapability(request, "settings.manage");
  const result = await updateSettings(user, await readJsonBody(request));
  if (!result.ok) return failureJson(result);
  return Response.json(result.settings);
}
