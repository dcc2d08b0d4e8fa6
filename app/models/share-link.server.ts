// Share links (docs/decisions/1260): a link that opens one invoice, one client statement or one
// agent statement without signing in. The token is 128 random bits shown once; the database keeps
// only its SHA-256, so neither a backup nor a reader of the table can open a document. A link
// expires (30 days unless said, at most 180), can be revoked, and counts its views.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { getDb, schema, type Executor, type ShareLink, type ShareScope } from "~/db.server";
import { assertCan, refuse, type Actor, type Capability } from "~/rules/capabilities.server";
import { safeParseFields } from "~/schemas/fields";
import { SHARE_DEFAULT_DAYS, ShareLinkSchema } from "~/schemas/sharing";
import { env, sessionSecrets } from "~/utils/env.server";
import { fieldErrorsOf } from "~/utils/field-errors";
import { fail, type Failure } from "~/utils/result";
import { countShareMiss, shareLinkWait } from "~/utils/throttle.server";
import { recordAudit } from "./audit.server";

const t = schema.shareLinks;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Links shown beside a document: the newest, as many as a person manages by hand. */
export const SHARE_LIST_LIMIT = 50;

/** Who may share each kind of document: who may see it signed in. */
export const SHARE_CAPABILITY: Record<ShareScope, Exclude<Capability, "role.switch">> = {
  invoice: "invoice.view",
  "client-statement": "client.statement",
  "agent-statement": "agent.settle",
};

const NOT_FOUND: Record<ShareScope, string> = {
  invoice: "Invoice not found",
  "client-statement": "Client not found",
  "agent-statement": "Agent not found",
};

/** 16 random bytes, base64url: 22 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const newToken = () => randomBytes(16).toString("base64url");
export const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/**
 * The token of a client's reminder link for a business day: 128 bits of HMAC-SHA256 under the
 * session secret, so the due reminders can name the link before it is recorded (GET writes
 * nothing), and two instances name the same one. Unpredictable without the secret, as a random
 * token is; the row (its hash) is written when the reminder is recorded as sent.
 */
export function reminderToken(clientId: number, day: string): string {
  const [secret] = sessionSecrets();
  return createHmac("sha256", secret)
    .update(`pks-reminder-link|${clientId}|${day}`)
    .digest()
    .subarray(0, 16)
    .toString("base64url");
}

/** The app's public origin: APP_ORIGIN when set (behind a proxy), else the request's own. */
export function publicOrigin(request: Request): string {
  const configured = env().APP_ORIGIN?.trim().replace(/\/+$/, "");
  return configured || new URL(request.url).origin;
}

/** Every answer of a share link's address: not indexed, no referrer, never cached. */
export const SHARED_HEADERS = {
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "private, no-store",
};

export const shareUrl = (origin: string, token: string) => `${origin}/s/${token}`;

export type ShareLinkView = {
  id: number;
  scope: ShareScope;
  subjectId: number;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  viewCount: number;
  lastViewedAt: string | null;
  state: "active" | "expired" | "revoked";
};

export function shareLinkView(link: ShareLink, now = new Date()): ShareLinkView {
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return {
    id: link.id,
    scope: link.scope,
    subjectId: link.subjectId,
    createdAt: iso(link.createdAt)!,
    expiresAt: iso(link.expiresAt)!,
    revokedAt: iso(link.revokedAt),
    viewCount: link.viewCount,
    lastViewedAt: iso(link.lastViewedAt),
    state: link.revokedAt ? "revoked" : new Date(link.expiresAt) <= now ? "expired" : "active",
  };
}

/** Whether the document a link would open exists (an unknown one is a 404, as for a signed-in user). */
export async function subjectExists(scope: ShareScope, id: number, db: Executor): Promise<boolean> {
  const table = scope === "invoice" ? schema.invoices : scope === "client-statement" ? schema.clients : schema.agents;
  const [row] = await db.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1);
  return !!row;
}

export type CreatedShareLink = { ok: true; id: number; url: string; token: string; expiresAt: string };

/** `{ scope, subjectId, expiresInDays? }` → the link, its URL shown this once. */
export async function createShareLink(
  actor: Actor,
  input: Record<string, unknown>,
  origin: string,
  now = new Date(),
): Promise<CreatedShareLink | Failure<400 | 403 | 404>> {
  const parsed = safeParseFields(ShareLinkSchema, input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const { scope, subjectId } = parsed.data;
  const refused = refuse(actor, SHARE_CAPABILITY[scope], `share-link/${scope}/${subjectId}`);
  if (refused) return refused;
  const days = parsed.data.expiresInDays ?? SHARE_DEFAULT_DAYS;
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  const token = newToken();
  const db = await getDb();
  const created = await db.transaction(async (tx) => {
    if (!(await subjectExists(scope, subjectId, tx))) return null;
    const [row] = await tx
      .insert(t)
      .values({ scope, subjectId, tokenHash: tokenHash(token), expiresAt, createdAt: now, createdBy: actor.id })
      .returning();
    await recordAudit(tx, {
      actor,
      action: "share_link.create",
      entityType: "share_link",
      entityId: row.id,
      after: { scope, subjectId, expiresAt },
    });
    return row;
  });
  if (!created) return fail(404, NOT_FOUND[scope]);
  return { ok: true, id: created.id, url: shareUrl(origin, token), token, expiresAt: expiresAt.toISOString() };
}

/** A document's links, newest first (at most SHARE_LIST_LIMIT). */
export async function listShareLinks(actor: Actor, scope: ShareScope, subjectId: number, now = new Date()) {
  assertCan(actor, SHARE_CAPABILITY[scope], `share-link/${scope}/${subjectId}`);
  const db = await getDb();
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.scope, scope), eq(t.subjectId, subjectId)))
    .orderBy(desc(t.id))
    .limit(SHARE_LIST_LIMIT);
  return rows.map((row) => shareLinkView(row, now));
}

/** Revokes a link; revoking it again answers the same link and writes nothing. */
export async function revokeShareLink(
  actor: Actor,
  id: number,
  now = new Date(),
): Promise<{ ok: true; link: ShareLinkView } | Failure<403 | 404>> {
  const db = await getDb();
  const [found] = await db.select().from(t).where(eq(t.id, id));
  if (!found) return fail(404, "Share link not found");
  const refused = refuse(actor, SHARE_CAPABILITY[found.scope], `share-link/${id}`);
  if (refused) return refused;
  if (found.revokedAt) return { ok: true, link: shareLinkView(found, now) };
  const revoked = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(t)
      .set({ revokedAt: now, revokedBy: actor.id })
      .where(and(eq(t.id, id), sql`${t.revokedAt} is null`))
      .returning();
    if (!row) return null;
    await recordAudit(tx, {
      actor,
      action: "share_link.revoke",
      entityType: "share_link",
      entityId: id,
      before: { scope: found.scope, subjectId: found.subjectId, revokedAt: null },
      after: { scope: found.scope, subjectId: found.subjectId, revokedAt: now },
    });
    return row;
  });
  // Revoked by someone else meanwhile: theirs stands.
  const [after] = revoked ? [revoked] : await db.select().from(t).where(eq(t.id, id));
  return { ok: true, link: shareLinkView(after, now) };
}

export type OpenedLink = Pick<ShareLink, "id" | "scope" | "subjectId" | "createdBy" | "expiresAt">;
export type OpenFailure =
  | { ok: false; status: 404 | 410; message: string }
  | { ok: false; status: 429; message: string; retryAfterSeconds: number };

export const GONE_MESSAGE = "This link has expired or was withdrawn. Ask the sender for a new one.";
export const UNKNOWN_MESSAGE = "There is no document at this address. Check the link you were sent.";
export const GUESSING_MESSAGE = "Too many links that do not open were asked for from your address. Try again later.";

/**
 * The link a token opens, for `address`: 404 unknown (or malformed), 410 expired or revoked (the
 * answer says nothing of what it was for), 429 once the address has asked for too many links that
 * do not open. `count` adds a view (the page; its PDF is the same visit).
 */
export async function openShareLink(
  token: string,
  address: string,
  { now = new Date(), count = true }: { now?: Date; count?: boolean } = {},
): Promise<{ ok: true; link: OpenedLink } | OpenFailure> {
  const wait = await shareLinkWait(address, now);
  if (wait !== null) return { ok: false, status: 429, message: GUESSING_MESSAGE, retryAfterSeconds: wait };
  const db = await getDb();
  const [found] = TOKEN_PATTERN.test(token)
    ? await db
        .select()
        .from(t)
        .where(eq(t.tokenHash, tokenHash(token)))
    : [];
  if (!found || !(await subjectExists(found.scope, found.subjectId, db))) {
    await countShareMiss(address, now);
    return { ok: false, status: 404, message: UNKNOWN_MESSAGE };
  }
  if (found.revokedAt || new Date(found.expiresAt) <= now) {
    await countShareMiss(address, now);
    return { ok: false, status: 410, message: GONE_MESSAGE };
  }
  if (count) {
    await db
      .update(t)
      .set({ viewCount: sql`${t.viewCount} + 1`, lastViewedAt: now })
      .where(eq(t.id, found.id));
  }
  const { id, scope, subjectId, createdBy, expiresAt } = found;
  return { ok: true, link: { id, scope, subjectId, createdBy, expiresAt } };
}

/**
 * The reader of a shared document. The link is the permission: it was made by someone allowed to
 * see the document, and the share routes read only the one subject it names; the presenters'
 * own checks are passed by the link's maker standing as an admin for this read.
 */
export const linkReader = (link: Pick<OpenedLink, "createdBy">): Actor => ({ id: link.createdBy, role: "admin" });

/**
 * A client's reminder link for a business day (see `reminderToken`): written with the reminder
 * that names it, in its transaction; the same day's second reminder finds it there.
 */
export async function ensureReminderLink(
  tx: Executor,
  clientId: number,
  day: string,
  createdBy: string | null,
  now: Date,
) {
  const hash = tokenHash(reminderToken(clientId, day));
  const [existing] = await tx.select({ id: t.id }).from(t).where(eq(t.tokenHash, hash));
  if (existing) return existing.id;
  const creator = createdBy ?? (await systemCreator(tx));
  const [row] = await tx
    .insert(t)
    .values({
      scope: "client-statement",
      subjectId: clientId,
      tokenHash: hash,
      expiresAt: new Date(now.getTime() + SHARE_DEFAULT_DAYS * DAY_MS),
      createdAt: now,
      createdBy: creator,
    })
    .onConflictDoNothing({ target: t.tokenHash })
    .returning({ id: t.id });
  return row?.id ?? null;
}

/** The automatic e-mails have no person: their links are made in the name of the first admin. */
async function systemCreator(tx: Executor): Promise<string> {
  const [admin] = await tx
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(eq(schema.users.role, "admin"))
    .orderBy(schema.users.createdAt)
    .limit(1);
  if (!admin) throw new Error("No admin to make the reminder link in the name of");
  return admin.id;
}

/** What a document is called on its share page ("Invoice 127", "Statement of Kodan"); null when it is gone. */
export async function subjectTitle(scope: ShareScope, id: number): Promise<{ title: string; back: string } | null> {
  const db = await getDb();
  if (scope === "invoice") {
    const [row] = await db
      .select({ no: schema.invoices.invoiceNo })
      .from(schema.invoices)
      .where(eq(schema.invoices.id, id));
    return row ? { title: `Invoice ${row.no}`, back: `/invoices/${id}` } : null;
  }
  const table = scope === "client-statement" ? schema.clients : schema.agents;
  const [row] = await db.select({ name: table.name }).from(table).where(eq(table.id, id));
  if (!row) return null;
  return scope === "client-statement"
    ? { title: `Statement of ${row.name}`, back: `/clients/${id}/statement` }
    : { title: `Agent statement of ${row.name}`, back: `/agents/${id}/statement` };
}
