// The bank statement's matches against their receipts (docs/decisions/1241): `db:check` runs it.
// A line is matched at most once and a receipt is one line's at most; a matched line names a
// receipt of exactly its credit.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "./client.server";

type Breach = { check: string; detail: string };
type Row = Record<string, unknown>;

export async function checkBankLines(db: Db, breaches: Breach[]) {
  const twice = rowsOf<Row>(
    await db.execute(sql`select receipt_id, count(*)::int as n from bank_lines where receipt_id is not null
      group by receipt_id having count(*) > 1 order by receipt_id limit 20`),
  );
  for (const r of twice ?? [])
    breaches.push({
      check: "no bank line matched twice",
      detail: `receipt ${r.receipt_id} is the match of ${r.n} bank lines`,
    });
  const differ = rowsOf<Row>(
    await db.execute(sql`select l.id, l.status, l.amount::text as amount, l.receipt_id,
        r.amount::text as receipt_amount
      from bank_lines l left join receipts r on r.id = l.receipt_id
      where (l.status = 'matched') <> (l.receipt_id is not null)
        or (l.receipt_id is not null and (r.id is null or r.amount <> l.amount))
      order by l.id limit 20`),
  );
  for (const r of differ ?? [])
    breaches.push({
      check: "a matched bank line's receipt has its amount",
      detail: `bank line ${r.id} (${r.status}, ${r.amount}): receipt ${r.receipt_id ?? "none"} of ${r.receipt_amount ?? "nothing"}`,
    });
}
