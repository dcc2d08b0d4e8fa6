// Plain links for the rows of long lists (docs/decisions/0505). A Remix <Link> runs a dozen
// hooks on the server and again while the page hydrates (its path resolved, its click handler,
// its prefetch state); the Invoices page had 150 of them. A RowLink is an <a>: without
// JavaScript it is an ordinary link, and once the page runs, the one click handler in the app
// shell (app-shell.tsx) turns a plain left click on it into a client-side navigation, as <Link>
// does. `data-discover` lets Remix fetch the route's code ahead, as it does for <Link>s. Rows
// written as HTML (decision 0507) use rowLinkHtml (row-link-html.ts), the same anchor.
import type { AnchorHTMLAttributes } from "react";

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  /** An absolute path in this app ("/invoices/12"). */
  to: string;
  /** Keep the scroll position, as `<Link preventScrollReset>` (dialogs over a list). */
  preventScrollReset?: boolean;
};

export function RowLink({ to, preventScrollReset, ...rest }: Props) {
  return <a href={to} data-discover="true" data-keep-scroll={preventScrollReset ? "" : undefined} {...rest} />;
}
