import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { ErrorView } from "~/components/error-view";
import { FormErrors, InputField, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import type { ShareScope } from "~/db.server";
import { useIsPending } from "~/hooks/use-is-pending";
import {
  createShareLink,
  listShareLinks,
  publicOrigin,
  revokeShareLink,
  SHARE_CAPABILITY,
  subjectTitle,
  type ShareLinkView,
} from "~/models/share-link.server";
import { requireUser } from "~/utils/auth.server";
import { SHARE_DEFAULT_DAYS, SHARE_MAX_DAYS, SHARE_SCOPES, ShareLinkSchema } from "~/schemas/sharing";
import { assertCan } from "~/rules/capabilities.server";
import { formatDateTime } from "~/utils/dates";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { newShareLinkCookie } from "~/utils/cookies.server";
import { redirectWithToast } from "~/utils/toast.server";

// A document's share links (docs/decisions/1260): make one (its address shown this once), see
// each one's expiry, views and last view, revoke. Reached from the invoice page and the two
// statements' Share links; who may see the document may share it.

const SCOPES: readonly string[] = SHARE_SCOPES;

function readSubject(url: URL) {
  const scope = url.searchParams.get("scope") as ShareScope;
  invariantResponse(SCOPES.includes(scope), "Unknown document", 400);
  const subjectId = parseId(url.searchParams.get("subjectId"));
  invariantResponse(subjectId, "Unknown document", 400);
  return { scope, subjectId };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Share · ${data.subject.title}` : "Share" },
];

/** The link the create just made, for this document, read once from its flash cookie. */
async function justCreated(request: Request, scope: ShareScope, subjectId: number) {
  const value: unknown = await newShareLinkCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const made = value as Record<string, unknown>;
  if (made.scope !== scope || made.subjectId !== subjectId) return null;
  if (typeof made.url !== "string" || typeof made.expiresAt !== "string") return null;
  return { url: made.url, expiresAt: made.expiresAt };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { scope, subjectId } = readSubject(new URL(request.url));
  assertCan(user, SHARE_CAPABILITY[scope], `share-link/${scope}/${subjectId}`);
  const subject = await subjectTitle(scope, subjectId);
  invariantResponse(subject, "Document not found");
  const links = await listShareLinks(user, scope, subjectId);
  const created = await justCreated(request, scope, subjectId);
  const headers = created ? { "Set-Cookie": await newShareLinkCookie().serialize("", { maxAge: 0 }) } : undefined;
  return data({ scope, subjectId, subject, links, created }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const { scope, subjectId } = readSubject(url);
  const formData = await readForm(request);
  if (formData.get("intent") === "revoke") {
    const id = parseId(formData.get("linkId"));
    invariantResponse(id, "Share link not found");
    const result = await revokeShareLink(user, id);
    if (!result.ok) throw data(result.message, { status: result.status });
    return redirectWithToast(`${url.pathname}${url.search}`, { title: "Share link revoked" });
  }
  const submission = parseWithZod(formData, { schema: ShareLinkSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return replyInvalid(submission);
  const result = await createShareLink(
    user,
    { ...Object.fromEntries(formData), scope, subjectId },
    publicOrigin(request),
  );
  if (!result.ok) return replyRefused(submission, result);
  // The address goes to the page by a flash cookie: reloading it then makes no second link.
  const made = { scope, subjectId, url: result.url, expiresAt: result.expiresAt };
  return redirectWithToast(
    `${url.pathname}${url.search}`,
    { title: "Share link created" },
    { headers: { "Set-Cookie": await newShareLinkCookie().serialize(made) } },
  );
}

export default function ShareLinks() {
  const { scope, subjectId, subject, links, created } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <PageHeader title="Share" subtitle={subject.title}>
        <Link to={subject.back} className="btn-outline">
          Back
        </Link>
      </PageHeader>
      {created ? <NewLink url={created.url} expiresAt={created.expiresAt} /> : null}
      <CreateForm scope={scope} subjectId={subjectId} lastResult={actionData?.result} />
      <LinkList links={links} />
    </div>
  );
}

function NewLink({ url, expiresAt }: { url: string; expiresAt: string }) {
  return (
    <section className="card space-y-2 border-green-600 p-4" aria-labelledby="new-link" role="status">
      <h2 id="new-link" className="font-semibold">
        New link: copy it now, it is shown only once
      </h2>
      <div className="flex items-center gap-2">
        <output
          className="block min-w-0 select-all break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm dark:bg-slate-800"
          data-testid="new-share-url"
        >
          {url}
        </output>
        <CopyButton text={url} label="Copy link" />
      </div>
      <p className="page-subtitle">Expires {formatDateTime(expiresAt)}.</p>
    </section>
  );
}

function CreateForm({
  scope,
  subjectId,
  lastResult,
}: {
  scope: ShareScope;
  subjectId: number;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const pending = useIsPending();
  const [form, fields] = useForm<{ expiresInDays: string }>({
    lastResult,
    constraint: { expiresInDays: { min: 1, max: SHARE_MAX_DAYS, step: 1, required: true } },
    defaultValue: { expiresInDays: String(SHARE_DEFAULT_DAYS) },
  });
  return (
    <section className="card p-4" aria-labelledby="create-link">
      <h2 id="create-link" className="font-semibold">
        Create a link
      </h2>
      <p className="page-subtitle">
        Anyone with the link can read this document, without signing in, until it expires or is revoked.
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-3 flex flex-wrap items-end gap-3">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" name="scope" value={scope} />
        <input type="hidden" name="subjectId" value={subjectId} />
        <InputField meta={fields.expiresInDays} label="Expires after (days)" type="number" inputMode="numeric" />
        <SubmitButton pending={pending} pendingLabel="Creating..." className="btn-primary">
          Create link
        </SubmitButton>
      </Form>
    </section>
  );
}

const STATE_WORDS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

function LinkList({ links }: { links: ShareLinkView[] }) {
  return (
    <section className="card overflow-x-auto p-4" aria-labelledby="links">
      <h2 id="links" className="font-semibold">
        Links
      </h2>
      {links.length === 0 ? (
        <p className="page-subtitle mt-2">No links yet.</p>
      ) : (
        <table className="mt-2 w-full text-sm">
          <thead>
            <tr className="text-left">
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
              <th scope="col" className="text-right">
                Views
              </th>
              <th scope="col">Last viewed</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((l) => (
              <tr key={l.id}>
                <td>{formatDateTime(l.createdAt)}</td>
                <td>{formatDateTime(l.expiresAt)}</td>
                <td>{STATE_WORDS[l.state]}</td>
                <td className="text-right">{l.viewCount}</td>
                <td>{l.lastViewedAt ? formatDateTime(l.lastViewedAt) : "Never"}</td>
                <td className="text-right">
                  {l.state === "active" ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="revoke" />
                      <input type="hidden" name="linkId" value={l.id} />
                      <button type="submit" className="btn-outline btn-sm" aria-label={`Revoke link ${l.id}`}>
                        Revoke
                      </button>
                    </Form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the share links. Please try again." />;
}
