// After bench/mixed-load.mjs (server stopped): every acknowledged write is in the database
// exactly once, no unacknowledged duplicate exists, invoice numbers have no gaps, and each
// touched invoice's paid total equals its payments. Prints JSON; exits 1 on any failure.
// Usage: npx tsx bench/check-writes.ts bench/out/mixed-acks.json
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { connect, optionsFromEnv } from "../db/client.server";

type Acks = {
  deliveries: { id: number; location: string }[];
  invoices: { id: number; deliveryId: number; invoiceNo: string }[];
  payments: { id: number; invoiceId: number; reference: string }[];
};
const acks = JSON.parse(readFileSync(process.argv[2], "utf8")) as Acks;
const { db, close } = await connect(optionsFromEnv());
const rows = async (q: ReturnType<typeof sql>) => {
  const r = await db.execute(q);
  return (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Record<string, unknown>[];
};
const problems: string[] = [];
const marked = await rows(
  sql`select location, count(*)::int as n, min(id) as id from deliveries where location like 'mix-%' group by location`,
);
const byLocation = new Map(marked.map((r) => [String(r.location), r]));
for (const d of acks.deliveries) {
  const found = byLocation.get(d.location);
  if (!found || found.n !== 1 || Number(found.id) !== d.id)
    problems.push(`delivery ${d.location}: ${found ? `${found.n} rows` : "missing"}`);
}
for (const r of marked) if ((r.n as number) > 1) problems.push(`duplicate delivery ${r.location}`);
const invoiceRows = await rows(sql`select id, delivery_id, invoice_no from invoices`);
const invoices = new Map(invoiceRows.map((r) => [Number(r.id), r]));
for (const i of acks.invoices) {
  const found = invoices.get(i.id);
  if (!found || Number(found.delivery_id) !== i.deliveryId || found.invoice_no !== i.invoiceNo)
    problems.push(`invoice ${i.id} missing or changed`);
}
const [numbers] = await rows(
  sql`select count(*)::int as n, count(distinct invoice_no)::int as distinct_n, (max(invoice_no::bigint) - min(invoice_no::bigint) + 1)::int as span from invoices`,
);
if (numbers.n !== numbers.distinct_n || numbers.n !== numbers.span)
  problems.push(`invoice numbers not gapless and unique: ${JSON.stringify(numbers)}`);
const paymentRows = await rows(
  sql`select reference, count(*)::int as n from payments where reference like 'mix-%' group by reference`,
);
const payments = new Map(paymentRows.map((r) => [String(r.reference), r.n as number]));
for (const p of acks.payments)
  if (payments.get(p.reference) !== 1) problems.push(`payment ${p.reference}: ${payments.get(p.reference) ?? 0} rows`);
const mismatched = await rows(
  sql`select i.id from invoices i left join payments p on p.invoice_id = i.id group by i.id, i.amount_paid having i.amount_paid <> coalesce(sum(p.amount), 0)`,
);
if (mismatched.length) problems.push(`${mismatched.length} invoices whose paid total differs from their payments`);
await close();
console.log(
  JSON.stringify({
    deliveries: acks.deliveries.length,
    invoices: acks.invoices.length,
    payments: acks.payments.length,
    exactlyOnce: problems.length === 0,
    problems: problems.slice(0, 10),
  }),
);
process.exit(problems.length ? 1 : 0);
