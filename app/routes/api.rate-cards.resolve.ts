import type { LoaderFunctionArgs } from "@remix-run/node";
import { ratesFor, readResolveQuery } from "~/models/rate-card.server";
import { getSettings } from "~/models/settings.server";
import { requireCapability } from "~/rules/capabilities.server";
import { failureJson } from "~/utils/result.server";

// The rates a delivery of `date` (default today), `clientId`, `agentId` and `site` would get
// (docs/decisions/1230): for each kind, `{ rate, cardId, source }`, the source "card" or
// "default" (System Settings), and haulage null without a card. Managers and admins.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "rate.view");
  const read = await readResolveQuery(new URL(request.url).searchParams);
  if (!read.ok) return failureJson(read);
  return Response.json(await ratesFor(user, read.query, await getSettings()));
}
