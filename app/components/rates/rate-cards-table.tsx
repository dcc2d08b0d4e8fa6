import { Link } from "@remix-run/react";
import { TableCard, ColumnHeads } from "~/components/table-scroll";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";
import { RATE_KIND_LABELS } from "~/utils/rate-kinds";

/** A card as a table row shows it (docs/decisions/1230). */
export type RateCardRow = {
  id: number;
  kind: keyof typeof RATE_KIND_LABELS;
  rate: string;
  validFrom: string;
  clientId: number | null;
  clientName: string | null;
  agentId: number | null;
  agentName: string | null;
  site: string | null;
  status?: "in force" | "replaced" | "upcoming";
};

const STATUS_WORDS = { "in force": "In force", replaced: "Replaced", upcoming: "Upcoming" } as const;

/** What a card names, in words ("Any" for what it leaves open). */
const named = (value: string | null) => value ?? <span className="text-slate-500">Any</span>;

/** The cards: kind, rate, what each names, its start and its status today; admins get Delete. */
export function RateCardsTable({
  id,
  heading,
  cards,
  empty,
  deleteFrom,
}: {
  id: string;
  heading: string;
  cards: RateCardRow[];
  empty: string | null;
  /** The list the Delete dialog opens over (admins only), or null. */
  deleteFrom: string | null;
}) {
  return (
    <TableCard
      id={id}
      heading={heading}
      label={heading}
      empty={cards.length ? null : empty}
      head={
        <>
          <ColumnHeads labels={["Card", "Kind"]} />
          <ColumnHeads labels={["Rate"]} className="num" />
          <ColumnHeads labels={["Client", "Agent", "Pick-up site", "From", "Today"]} />
          {deleteFrom !== null ? (
            <th scope="col">
              <span className="sr-only">Delete</span>
            </th>
          ) : null}
        </>
      }
    >
      {cards.map((card) => (
        <tr key={card.id}>
          <td className="whitespace-nowrap">#{card.id}</td>
          <td className="whitespace-nowrap font-semibold">{RATE_KIND_LABELS[card.kind]}</td>
          <td className="num">{formatNaira(card.rate)}</td>
          <td className="wrap-any">
            {card.clientId !== null ? <Link to={`/clients/${card.clientId}`}>{card.clientName}</Link> : named(null)}
          </td>
          <td className="wrap-any">{named(card.agentName)}</td>
          <td className="wrap-any">{named(card.site)}</td>
          <td className="whitespace-nowrap">{formatDate(card.validFrom)}</td>
          <td className="whitespace-nowrap">{card.status ? STATUS_WORDS[card.status] : "—"}</td>
          {deleteFrom !== null ? (
            <td>
              <Link
                to={`/rates/${card.id}/delete${deleteFrom}`}
                className="btn-ghost btn-sm"
                preventScrollReset
                aria-label={`Delete card #${card.id}`}
              >
                Delete
              </Link>
            </td>
          ) : null}
        </tr>
      ))}
    </TableCard>
  );
}

/**
 * A client's or an agent's cards under their own heading, with the way to all of them on Rates:
 * the client's page, and the agent's Edit dialog (managers) and statement (admins), each at its
 * heading level.
 */
export function OwnerRateCards({
  owner,
  cards,
  heading,
  level,
}: {
  owner: { kind: "client" | "agent"; id: number };
  cards: RateCardRow[];
  heading: string;
  level: "h2" | "h3";
}) {
  const Heading = level;
  const { kind, id } = owner;
  return (
    <section className={level === "h3" ? "mt-4 space-y-2" : "space-y-2"} aria-labelledby={`${kind}-rate-cards`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={`${kind}-rate-cards`} className={level === "h3" ? "font-semibold" : "text-lg font-semibold"}>
          Rate cards
        </Heading>
        <Link to={`/rates?${kind}Id=${id}`} className="btn-outline btn-sm">
          All of its cards on Rates
        </Link>
      </div>
      <RateCardsTable
        id={`${kind}-rate-card-list`}
        heading={heading}
        cards={cards}
        empty={`No card names this ${kind}: the cards for every ${kind}, else System Settings' rates, apply.`}
        deleteFrom={null}
      />
    </section>
  );
}
