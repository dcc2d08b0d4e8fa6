import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { PlusIcon } from "~/components/icons";
import { Breadcrumb, PageHeader } from "~/components/page-header";
import { OwnerRateCards } from "~/components/rates/rate-cards-table";
import { TableScroll } from "~/components/table-scroll";
import { clientPage, type ClientPage } from "~/presenters/client-page.server";
import { requireCapability } from "~/rules/capabilities.server";
import { formatDate } from "~/utils/dates";
import { invariantResponse, requireIdParam } from "~/utils/http.server";
import { keepListBehindDialogs } from "~/utils/revalidate";

// A client's page (docs/decisions/1210): details, links, and its quality rules. Add Rule opens
// over it (a dialog route, a page of its own without JavaScript).
export const shouldRevalidate = keepListBehindDialogs((params) => `/clients/${params.id}`);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.client.name} · Clients` : "Client · Clients" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const page = await clientPage(user, requireIdParam(params.id, "Client not found"));
  invariantResponse(page, "Client not found");
  return page;
}

export default function ClientPageRoute() {
  const page = useLoaderData<typeof loader>();
  const { client } = page;
  return (
    <div className="space-y-4">
      <Breadcrumb to="/clients">Clients</Breadcrumb>
      <PageHeader title={client.name} subtitle="Client">
        <Link to={`/clients/${client.id}/edit`} className="btn-outline">
          Edit
        </Link>
        <Link to={`/clients/${client.id}/statement`} className="btn-outline">
          Statement
        </Link>
        <Link to={`/invoices?clientId=${client.id}`} className="btn-outline">
          Invoices
        </Link>
      </PageHeader>
      <ClientDetails client={client} />
      <QualityRules page={page} />
      <OwnerRateCards
        owner={{ kind: "client", id: client.id }}
        cards={page.rateCards}
        heading={`Rate cards naming ${client.name}${page.moreRateCards ? " (the newest 50)" : ""}`}
        level="h2"
      />
      <Outlet />
    </div>
  );
}

function ClientDetails({ client }: { client: ClientPage["client"] }) {
  const facts: [string, string | null][] = [
    ["Tax rate", `${client.taxRate}%`],
    ["Payment terms", `${client.paymentTermsDays} ${client.paymentTermsDays === 1 ? "day" : "days"}`],
    // Decision 1240: what the client keeps back from what it pays.
    ["Withholds", `WHT ${client.whtRate}%${client.withholdsVat ? " and the VAT" : ""}`],
    ["E-mail", client.email],
    ["Phone", client.phone],
    ["Tax number (TIN)", client.taxNo],
    ["Address", client.address],
    // Decision 1220: such a client's deliveries wait for its weighbridge ticket before invoicing.
    [
      "Invoiced",
      client.requiresReceivedTicket
        ? "Only with the client's ticket, on the accepted tons"
        : "With or without the client's ticket",
    ],
  ];
  return (
    <section aria-label="Client details" className="card p-4">
      <dl className="facts !mt-0 sm:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt>{label}</dt>
            <dd className="whitespace-pre-line break-words">{value ?? "Not given"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function QualityRules({ page }: { page: ClientPage }) {
  const { rules, inEffect, more, shown } = page;
  return (
    <section aria-labelledby="quality-rules" className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="quality-rules" className="text-lg font-semibold">
            Quality rules
          </h2>
          <p className="page-subtitle">
            Weight deducted when a delivery&apos;s moisture is above the threshold. A rule holds from its date until the
            next one.
          </p>
        </div>
        <Link to="quality-rules/new" className="btn-primary" preventScrollReset>
          <PlusIcon width={16} height={16} /> Add Rule
        </Link>
      </div>
      {inEffect ? (
        <p className="card p-3 text-sm" data-testid="rule-example">
          <strong>In effect since {formatDate(inEffect.validFrom)}.</strong> {inEffect.example}
        </p>
      ) : null}
      {rules.length === 0 ? (
        <p className="card p-4 text-sm">No quality rules yet: no weight is deducted for moisture.</p>
      ) : (
        <TableScroll label="Quality rules, newest first">
          <table className="data-table compact">
            <thead>
              <tr>
                <th scope="col">Valid from</th>
                <th scope="col" className="num">
                  Threshold
                </th>
                <th scope="col" className="num">
                  Deduction per point
                </th>
                <th scope="col">
                  <span className="sr-only">Status</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <tr key={rule.id}>
                  <td className="nowrap">{formatDate(rule.validFrom)}</td>
                  <td className="num">{`${rule.moistureThreshold}%`}</td>
                  <td className="num">{`${rule.deductionPerPoint}%`}</td>
                  <td>
                    {rule.inEffect ? (
                      <span className="badge tone-green">In effect</span>
                    ) : rule.upcoming ? (
                      <span className="badge tone-blue">Upcoming</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <p className="page-subtitle text-xs">
        Threshold: the moisture percent above which weight is deducted. Deduction per point: the percent of the received
        weight deducted for each point above it.
        {more ? ` Showing the newest ${shown} rules.` : null}
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the client. Please try again." />;
}
