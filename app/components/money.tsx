import { formatNaira, formatNairaCompact, type Decimal } from "~/utils/money";

/**
 * A summary figure (a stat card, a total at the top of a page): at or above ₦1,000,000 in the
 * compact form of spec section 9 ("₦11.7M"), with the exact amount in its tooltip and for
 * screen readers. Everything a person checks to the kobo (tables, invoices, payments, balances,
 * statements) uses `formatNaira` instead. docs/decisions/0010-money-display.md.
 */
export function SummaryAmount({ value }: { value: string | Decimal }) {
  const full = formatNaira(value);
  const compact = formatNairaCompact(value);
  if (compact === full) return <>{full}</>;
  return (
    <span title={full} data-amount={full}>
      <span aria-hidden="true">{compact}</span>
      <span className="sr-only">{full}</span>
    </span>
  );
}
