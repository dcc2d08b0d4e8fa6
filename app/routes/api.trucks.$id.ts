import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getTruck, truckView, updateTruck } from "~/models/truck.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// One truck of the register (docs/decisions/1200), for managers and admins.
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "truck.manage");
  const id = parseId(params.id);
  if (!id) return jsonError(400, "Truck id must be a number");
  const truck = await getTruck(id);
  return truck ? Response.json(truckView(truck)) : jsonError(404, "Truck not found");
}

/** PATCH with any of `{ plate, transporter, phone, usualTareKg }`: the fields sent change (null clears). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed();
  const user = await requireCapability(request, "truck.manage");
  const id = parseId(params.id);
  if (!id) return jsonError(400, "Truck id must be a number");
  const result = await updateTruck(user, id, await readJsonBody(request));
  if (!result.ok) return failureJson(result, "truckId" in result ? { truckId: result.truckId } : undefined);
  return Response.json(truckView(result.truck));
}
