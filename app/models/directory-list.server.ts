// Agents and clients as JSON lists: alphabetical (ignoring case), read through the unique
// index on lower(name) a page at a time. The cursor is the last name seen, base64url-encoded.
// The Agents and Clients pages: newest first, 50 cards a page, keyset on the primary key, with
// an optional search on the name (docs/decisions/0200).
import { and, asc, sql } from "drizzle-orm";
import { getDb, schema, type Agent, type Client, type Executor, type User } from "~/db.server";
import { can } from "~/rules/capabilities.server";
import { FIRST_PAGE, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import { readPageRequest, type Page, type PageRequest } from "~/utils/params";
import { searchTerm } from "~/utils/text";

type Table = typeof schema.agents | typeof schema.clients;

export function encodeNameCursor(name: string) {
  return Buffer.from(name.toLowerCase(), "utf8").toString("base64url");
}

/** The name a cursor stands for, or null when it is not one of ours. */
export function decodeNameCursor(cursor: string | null): string | null | "invalid" {
  if (cursor === null || cursor === "") return null;
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return "invalid";
  const name = Buffer.from(cursor, "base64url").toString("utf8");
  // A name never holds a control character, and PostgreSQL text cannot hold U+0000 at all ("AA"
  // decodes to it): such a cursor is not one of ours, never a database error.
  return name && !/\p{Cc}/u.test(name) && encodeNameCursor(name) === cursor ? name : "invalid";
}

async function page<T extends Agent | Client>(table: Table, after: string | null, limit: number, q: string | null) {
  const db = await getDb();
  const rows = (await db
    .select()
    .from(table)
    .where(and(after === null ? undefined : sql`lower(${table.name}) > ${after}`, nameContains(table, q)))
    .orderBy(asc(sql`lower(${table.name})`))
    .limit(limit + 1)) as T[];
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  return { items, nextCursor: more && items.length ? encodeNameCursor(items[items.length - 1].name) : null };
}

/** `q`: only names containing it (the CSV export of a searched page). */
export const agentsPage = (after: string | null, limit: number, q: string | null = null) =>
  page<Agent>(schema.agents, after, limit, q);
export const clientsPage = (after: string | null, limit: number, q: string | null = null) =>
  page<Client>(schema.clients, after, limit, q);

/** Every row of a list paged by name (agents, clients, Receivables), in batches. */
export async function* directoryBatches<T extends { name: string }>(
  read: (after: string | null, limit: number, q: string | null) => Promise<{ items: T[]; nextCursor: string | null }>,
  q: string | null = null,
  batchSize = 1000,
) {
  let after: string | null = null;
  for (;;) {
    const { items, nextCursor } = await read(after, batchSize, q);
    if (items.length) yield items;
    if (!nextCursor) return;
    after = items[items.length - 1].name.toLowerCase();
  }
}

const DIRECTORY_PAGE_SIZE = 50;
/** Longer searches are cut to this (a name is at most 100 characters). */
const DIRECTORY_SEARCH_MAX = 100;

/** The search of a directory page from its URL (`?q=`): trimmed, null when empty or unusable. */
export function readDirectorySearch(params: URLSearchParams): string | null {
  return searchTerm(params.get("q"), DIRECTORY_SEARCH_MAX);
}

/** What a directory page's URL asks for: its search and its page (a cursor not of ours: the first). */
export function readDirectoryRequest(params: URLSearchParams): { search: string | null; page: PageRequest } {
  const requested = readPageRequest(params, "id");
  return { search: readDirectorySearch(params), page: requested.invalid ? FIRST_PAGE : requested };
}

/** Names containing `q`, ignoring case; `%`, `_` and `\` in it are matched as themselves. */
function nameContains(table: Table, q: string | null) {
  if (q === null) return undefined;
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`lower(${table.name}) like ${pattern}`;
}

/**
 * Where and in what order one page of a directory is read: newest first, backwards along the
 * primary key from the cursor; with a search, the same walk keeps only matching names.
 */
function cardsWalk(table: Table, q: string | null, page: PageRequest) {
  return {
    where: and(keysetWhere({ id: table.id }, page), nameContains(table, q)),
    order: keysetOrder({ id: table.id }, page),
  };
}

type AgentCard = { id: number; name: string; contact: string | null };
type ClientCard = { id: number; name: string; taxRate: string; paymentTermsDays: number };

/** The query of one page of the Agents page (exported for the plan tests). */
export function agentCardsQuery(db: Executor, q: string | null, page: PageRequest, limit = DIRECTORY_PAGE_SIZE) {
  const a = schema.agents;
  const { where, order } = cardsWalk(a, q, page);
  return db
    .select({ id: a.id, name: a.name, contact: a.contact })
    .from(a)
    .where(where)
    .orderBy(...order)
    .limit(limit + 1);
}

/** The query of one page of the Clients page (exported for the plan tests). */
export function clientCardsQuery(db: Executor, q: string | null, page: PageRequest, limit = DIRECTORY_PAGE_SIZE) {
  const c = schema.clients;
  const { where, order } = cardsWalk(c, q, page);
  return db
    .select({ id: c.id, name: c.name, taxRate: c.taxRate, paymentTermsDays: c.paymentTermsDays })
    .from(c)
    .where(where)
    .orderBy(...order)
    .limit(limit + 1);
}

type CardsQuery<T> = (db: Executor, q: string | null, page: PageRequest, limit: number) => PromiseLike<T[]>;

async function cardsPage<T extends { id: number }>(
  query: CardsQuery<T>,
  { search, page }: { search: string | null; page: PageRequest },
  limit: number,
): Promise<Page<T>> {
  const rows = await query(await getDb(), search, page, limit);
  return toPage(rows, limit, page, (r) => ({ key: null, id: r.id }));
}

/** One page of the Agents page, for `readDirectoryRequest`'s search and page. */
export const agentCardsPage = (request: { search: string | null; page: PageRequest }, limit = DIRECTORY_PAGE_SIZE) =>
  cardsPage<AgentCard>(agentCardsQuery, request, limit);

/** One page of the Clients page, for `readDirectoryRequest`'s search and page. */
export const clientCardsPage = (request: { search: string | null; page: PageRequest }, limit = DIRECTORY_PAGE_SIZE) =>
  cardsPage<ClientCard>(clientCardsQuery, request, limit);

/**
 * What a role reads of an agent or client through the JSON calls. Every signed-in user reads the
 * lists (the delivery forms need them, decision 0200), but the details added for settlements and
 * invoice documents (an agent's phone and bank account, a client's address, e-mail, phone and tax
 * number) are for those who manage them: staff get the spec's fields only.
 */
export function agentFieldsFor(viewer: Pick<User, "role">): (agent: Agent) => Partial<Agent> {
  if (can(viewer, "agent.manage")) return (agent) => agent;
  return ({ id, name, contact, createdAt }) => ({ id, name, contact, createdAt });
}

export function clientFieldsFor(viewer: Pick<User, "role">): (client: Client) => Partial<Client> {
  if (can(viewer, "client.manage")) return (client) => client;
  return ({ id, name, taxRate, paymentTermsDays, createdAt }) => ({ id, name, taxRate, paymentTermsDays, createdAt });
}

/** The same batches, each row shown through `view`. */
export async function* viewBatches<T, V>(batches: AsyncIterable<T[]>, view: (row: T) => V) {
  for await (const batch of batches) yield batch.map(view);
}
