import { ExportCsvLink } from "~/components/export-link";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuditEventList } from "~/components/audit/audit-event-list";
import { FilterForm } from "~/components/filter-form";
import { FilterDate, FilterSelect, FilterText } from "~/components/list-filters";
import { Pager } from "~/components/pager";
import { AUDIT_ENTITIES, listAuditEvents, parseAuditFilters } from "~/models/audit.server";
import { presentAuditEvents } from "~/presenters/audit-events.server";
import { ACTION_CHOICES, ENTITY_WORDS } from "~/utils/audit-words.server";
import { env } from "~/utils/env.server";
import { zoneLabel } from "~/utils/zone-days.server";
import { requireCapability } from "~/rules/capabilities.server";
import { readPageRequest } from "~/utils/params";
import { PageHeader } from "~/components/page-header";

export const meta: MetaFunction = () => [{ title: "Audit Trail · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "audit.view");
  const params = new URL(request.url).searchParams;
  // A filter or cursor that cannot match is ignored: the page shows what it can.
  const { filters } = parseAuditFilters(params);
  const asked = readPageRequest(params, "id");
  const page = asked.invalid ? { cursor: null, direction: "older" as const } : asked;
  const { events, olderCursor, newerCursor } = await listAuditEvents(user, filters, { page });
  return {
    events: await presentAuditEvents(events),
    olderCursor,
    newerCursor,
    filtered: Object.keys(filters).length > 0,
    entities: AUDIT_ENTITIES.map((value) => ({ value, label: ENTITY_WORDS[value] })),
    actions: ACTION_CHOICES,
    zone: zoneLabel(env().APP_TIME_ZONE),
  };
}

export default function AuditPage() {
  const { events, olderCursor, newerCursor, filtered, entities, actions, zone } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <PageHeader title="Audit Trail" subtitle={`Who changed what, and when (${zone}). Nothing here can be edited.`}>
        <ExportCsvLink to="/audit/export" />
      </PageHeader>
      <FilterForm
        label="Filter audit events"
        clearTo="/audit"
        names={["entity", "entityId", "actor", "action", "from", "to"]}
      >
        <FilterSelect name="entity" label="Record" allLabel="All records" options={entities} />
        <FilterText name="entityId" label="Record ID" />
        <FilterText name="actor" label="Changed by (e-mail)" />
        <FilterSelect name="action" label="What happened" allLabel="Everything" options={actions} />
        <FilterDate name="from" label="From" />
        <FilterDate name="to" label="To" />
      </FilterForm>
      <section className="card p-4" aria-labelledby="events-title">
        <h2 id="events-title" className="sr-only">
          Events
        </h2>
        <AuditEventList
          events={events}
          emptyText={filtered ? "No events match the current filter" : "No events recorded yet"}
        />
      </section>
      <Pager label="Audit pages" olderCursor={olderCursor} newerCursor={newerCursor} />
    </div>
  );
}
