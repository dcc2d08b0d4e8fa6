/** The Statement link in a row of a balance list (Agent Balances, Receivables), named for screen readers. */
export function StatementLink({ href, name }: { href: string; name: string }) {
  return (
    <a href={href} aria-label={`Statement of ${name}`}>
      Statement
    </a>
  );
}
