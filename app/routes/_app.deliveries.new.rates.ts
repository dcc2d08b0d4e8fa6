import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDeliveryClient } from "~/models/delivery.server";
import { getSettings } from "~/models/settings.server";
import { newDeliveryRatesHtml, readRatesChoice } from "~/presenters/delivery-rates.server";
import { requireCapability } from "~/rules/capabilities.server";
import { failureJson } from "~/utils/result.server";

// New Delivery's rates panel for the agent, pick-up site and date chosen (`agentId`, `location`,
// `date`: the form's own names), as the HTML the page itself writes (docs/decisions/1230): the
// page's few lines of JavaScript swap it in as the choices change. Managers and admins; a bad
// date or an unknown agent is a 400 under the field. No delivery client: 204, no panel.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "rate.view");
  const read = await readRatesChoice(new URL(request.url).searchParams);
  if (!read.ok) return failureJson(read);
  const settings = await getSettings();
  const { client } = await getDeliveryClient(settings);
  const panel = await newDeliveryRatesHtml(user, client, read.choice, settings);
  if (panel === null) return new Response(null, { status: 204 });
  return new Response(panel, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" },
  });
}
