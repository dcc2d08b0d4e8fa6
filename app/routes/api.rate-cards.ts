import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createRateCard, listRateCards, readCardFilters } from "~/models/rate-card.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

// Rate cards (docs/decisions/1230). GET: the newest 50 (by id), filtered by `kind`, `clientId`,
// `agentId`, `site`, `inForce=1`, paged with `before` (the last id), each with its status today;
// managers and admins. POST `{ kind, rate, validFrom, clientId?, agentId?, site? }` adds one; admins.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "rate.view");
  const read = readCardFilters(new URL(request.url).searchParams);
  if (!read.ok) return failureJson(read);
  const { items, more } = await listRateCards(user, read.filters);
  return Response.json({ items, nextBefore: more ? items[items.length - 1].id : null });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "rate.manage");
  const result = await createRateCard(user, await readJsonBody(request));
  return result.ok ? Response.json(result.card, { status: 201 }) : failureJson(result);
}
