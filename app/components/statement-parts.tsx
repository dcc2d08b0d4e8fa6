// The pieces a statement page is made of, shared by the client statement of account and the
// agent statement (docs/decisions/0970, 0980): the period as a GET form (works without
// JavaScript), its error, the downloads of the period shown, the figures, and the links between
// pages of lines.
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The period form, the period's error, and the page's own content below them. */
export function StatementPeriod({
  from,
  to,
  error,
  children,
}: {
  from: string;
  to: string;
  error: string | null;
  children?: ReactNode;
}) {
  return (
    <>
      <Form method="get" className="card flex flex-wrap items-end gap-3 p-4" aria-label="Statement period">
        <label className="flex flex-col text-sm">
          From
          <input type="date" name="from" defaultValue={from} className="input" required />
        </label>
        <label className="flex flex-col text-sm">
          To
          <input type="date" name="to" defaultValue={to} className="input" required />
        </label>
        <button type="submit" className="btn-primary">
          Show statement
        </button>
      </Form>
      {error ? (
        <p role="alert" className="card border-red-300 p-4 text-red-700">
          {error}
        </p>
      ) : null}
      {children}
    </>
  );
}

/** Export CSV and PDF of the period shown: plain downloads, `base` is e.g. "/clients/3/statement". */
export function StatementDownloads({ base, period }: { base: string; period: { from: string; to: string } }) {
  const query = `from=${period.from}&to=${period.to}`;
  return (
    <>
      <a href={`${base}/export?${query}`} className="btn-outline" download>
        Export CSV
      </a>
      <a href={`${base}/pdf?${query}`} className="btn-outline" download>
        PDF
      </a>
    </>
  );
}

export function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="page-subtitle">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** First lines / More lines: `base` is the statement's address with its period. */
export function StatementPager({
  base,
  continued,
  nextCursor,
}: {
  base: string;
  continued: boolean;
  nextCursor: string | null;
}) {
  return (
    <nav className="mt-3 flex gap-2" aria-label="Statement pages">
      {continued ? (
        <Link to={base} className="btn-ghost btn-sm">
          First lines
        </Link>
      ) : null}
      {nextCursor ? (
        <Link to={`${base}&after=${encodeURIComponent(nextCursor)}`} className="btn-outline btn-sm">
          More lines
        </Link>
      ) : null}
    </nav>
  );
}
