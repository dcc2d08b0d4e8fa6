import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { FilterForm } from "~/components/filter-form";
import { ClientFilter, FilterSelect, FilterText } from "~/components/list-filters";
import { PlusIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { RateCardsTable } from "~/components/rates/rate-cards-table";
import { listAgentChoices } from "~/models/agent.server";
import { listClientChoices } from "~/models/client.server";
import { listRateCards, readCardFilters } from "~/models/rate-card.server";
import { getSettings } from "~/models/settings.server";
import { can, requireCapability } from "~/rules/capabilities.server";
import { RATE_CARD_KINDS, RATE_KIND_LABELS } from "~/utils/rate-kinds";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";

// Rates (docs/decisions/1230): the rate cards, newest first, filtered by kind, client, agent,
// pick-up site and "in force today", 50 a page; System Settings' defaults where no card applies.
// Managers read it; admins add and delete cards (dialogs over the list, pages of their own
// without JavaScript).
export const meta: MetaFunction = () => [{ title: "Rates · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "rate.view");
  const read = readCardFilters(new URL(request.url).searchParams);
  // A filter that is not one shows every card and says so.
  const filters = read.ok ? read.filters : {};
  const [page, settings, clients, agents] = await Promise.all([
    listRateCards(user, filters),
    getSettings(),
    listClientChoices(),
    listAgentChoices(),
  ]);
  return {
    cards: page.items,
    nextBefore: page.more ? page.items[page.items.length - 1].id : null,
    today: page.today,
    filterError: read.ok ? null : read.message,
    defaults: { buying: settings.buyingRate, selling: settings.sellingRate, offloading: settings.offloadingCost },
    canManage: can(user, "rate.manage"),
    clients,
    agents,
  };
}

export default function RatesPage() {
  const { cards, nextBefore, today, filterError, defaults, canManage, clients, agents } =
    useLoaderData<typeof loader>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const next = new URLSearchParams(params);
  if (nextBefore) next.set("before", String(nextBefore));
  return (
    <div className="space-y-4">
      <PageHeader title="Rates" subtitle="Rate cards by client, agent and pick-up site, dated">
        {canManage ? (
          <Link to={`new${search}`} className="btn-primary" preventScrollReset>
            <PlusIcon width={16} height={16} /> Add Card
          </Link>
        ) : null}
      </PageHeader>
      <section className="card p-4 text-sm" aria-labelledby="defaults-heading">
        <h2 id="defaults-heading" className="font-semibold">
          Where no card applies
        </h2>
        <p className="page-subtitle">
          System Settings&apos; defaults: buying {formatNaira(defaults.buying)} per ton, selling{" "}
          {formatNaira(defaults.selling)} per ton, offloading {formatNaira(defaults.offloading)} a delivery; no haulage.
          A card applies to a delivery when everything it names matches and it started on or before the delivery&apos;s
          day; the card naming the most of client, agent and site wins, then the latest start. A new delivery keeps the
          rates it got.
        </p>
      </section>
      <FilterForm
        label="Filter rate cards"
        clearTo="/rates"
        names={["kind", "site", "inForce", "clientId", "agentId"]}
        className="sm:grid-cols-3 lg:grid-cols-6"
      >
        <FilterSelect
          name="kind"
          label="Kind"
          allLabel="Every kind"
          options={RATE_CARD_KINDS.map((kind) => ({ value: kind, label: RATE_KIND_LABELS[kind] }))}
        />
        <ClientFilter clients={clients} />
        <FilterSelect
          name="agentId"
          label="Agent"
          allLabel="All agents"
          options={agents.map((a) => ({ value: a.id, label: a.name }))}
          searchNouns="agents"
        />
        <FilterText name="site" label="Pick-up site" />
        <label className="flex items-center gap-2 text-sm sm:self-end sm:pb-2">
          <input type="checkbox" name="inForce" value="1" defaultChecked={params.get("inForce") === "1"} />
          In force today ({formatDate(today)})
        </label>
      </FilterForm>
      {filterError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {filterError}; showing every card.
        </p>
      ) : null}
      <RateCardsTable
        id="rate-cards"
        heading="Rate cards, newest first"
        cards={cards}
        empty="No rate cards match. Without one, System Settings' rates apply."
        deleteFrom={canManage ? search : null}
      />
      {nextBefore ? (
        <nav aria-label="Rate card pages" className="flex justify-end">
          <Link to={`?${next.toString()}`} className="btn-outline btn-sm">
            Older cards
          </Link>
        </nav>
      ) : null}
      <Outlet />
    </div>
  );
}
