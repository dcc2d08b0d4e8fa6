import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** A page's title and one-line description, with its actions (links, exports) to the right. */
export function PageHeader({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="page-title">{title}</h1>
        {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
      </div>
      {children ? <div className="flex flex-wrap gap-2">{children}</div> : null}
    </header>
  );
}

/** The way back to the list a record's page belongs to ("Invoices", "Clients"). */
export function Breadcrumb({ to, children }: { to: string; children: ReactNode }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <Link to={to} className="underline">
        {children}
      </Link>
    </nav>
  );
}
