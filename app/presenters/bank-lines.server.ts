// The bank statement's lines as the page and GET /api/bank-lines read them (docs/decisions/1241):
// newest first, 50 a page (keyset on date and id through bank_lines_status_date_idx), each
// unmatched credit with its proposed matches, computed on read for the page's lines only:
// invoice numbers in the narration (invoices_invoice_no_unique), account numbers the client's
// earlier receipts showed (client_bank_accounts), the client's name (the clients table, read
// once a page: a business has hundreds of clients, not millions), and the amount
// (invoices_owed_balance_idx: the oldest due invoices still owed whose balance is the cash or
// its gross-up, three a figure).
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { getDb, rowsOf, schema, type BankLine, type BankLineStatus, type Executor, type Invoice } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import {
  accountNumbersIn,
  fitOf,
  invoiceNumbersIn,
  namesClient,
  rankProposals,
  settledCandidates,
  type ClientRates,
  type OwedInvoice,
  type Proposal,
} from "~/rules/bank-matching";
import { balanceOf, owedSql } from "~/rules/invoices.server";
import { compare } from "~/utils/money";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";

export const BANK_LINE_PAGE_SIZE = 50;
/** The clients read for name matching and their rates: more than a trader of this size has. */
const CLIENTS_READ = 5_000;
/** A client's owed invoices a proposal chooses among (oldest due first, as Record Receipt offers). */
const OWED_READ = 100;
/** A line shows at most three proposals (rankProposals): three invoices of a balance fill them. */
const AMOUNT_PROPOSALS = 3;

const l = schema.bankLines;
const inv = schema.invoices;
const KEYSET = { key: l.lineDate, id: l.id };

export type BankLineFilters = { status?: BankLineStatus };

export type BankLineView = Pick<BankLine, "id" | "bankAccountId" | "amount" | "narration" | "reference" | "status"> & {
  date: string;
  receiptId: number | null;
  bankAccountName: string;
  proposals: Proposal[];
};

/** The balance of an invoice still owed, as invoices_owed_balance_idx indexes it. */
const owedBalanceSql = () => sql`(${inv.amount} - (${inv.amountPaid} + ${inv.amountWithheld} + ${inv.amountCredited}))`;

/**
 * The ids of the oldest due invoices still owed whose balance is one of `balances`, at most
 * `perBalance` of each: one index probe a figure in invoices_owed_balance_idx, however many
 * invoices share it (a common figure, 650,000 for ten tons, is thousands at a million
 * deliveries). Not `balance in (...) order by due limit n`: the planner, guessing that many of
 * the figures match, walked the owed invoices in due order and filtered them, every owed
 * invoice when few match (the scale test EXPLAINs it).
 */
export function owedByBalanceQuery(balances: readonly string[], perBalance = AMOUNT_PROPOSALS) {
  return sql`select i.id from unnest(${`{${balances.join(",")}}`}::numeric[]) as b(balance)
    cross join lateral (
      select ${inv.id} from ${inv}
      where ${owedSql()} and ${owedBalanceSql()} = b.balance
      order by ${inv.expectedPaymentDate}, ${inv.id} limit ${perBalance}
    ) i`;
}

async function owedByBalance(ex: Executor, balances: string[]): Promise<Invoice[]> {
  if (!balances.length) return [];
  const ids = rowsOf<{ id: number }>(await ex.execute(owedByBalanceQuery(balances))).map((r) => Number(r.id));
  if (!ids.length) return [];
  return ex.select().from(inv).where(inArray(inv.id, ids)).orderBy(asc(inv.expectedPaymentDate), asc(inv.id));
}

type ClientRow = ClientRates & { id: number; name: string; taxRate: string };

const owedOf = (i: Invoice): OwedInvoice => ({
  id: i.id,
  invoiceNo: i.invoiceNo,
  balance: balanceOf(i),
  taxRate: i.taxRate,
});

/** Among a client's owed invoices, the one the cash pays whole (or short by withholding), else none. */
function bestOf(cash: string, owed: OwedInvoice[], client: ClientRow): OwedInvoice[] {
  // Only a balance among the cash's candidates can fit whole (settledCandidates): the exact
  // check runs on those alone, not on each of the client's hundred oldest owed invoices.
  const rates = [...new Set(owed.map((i) => i.taxRate))].map((vatRate) => ({
    vatRate,
    whtRate: client.whtRate,
    withholdsVat: client.withholdsVat,
  }));
  const candidates = new Set(settledCandidates(cash, rates));
  const fits = owed
    .filter((i) => candidates.has(i.balance))
    .filter((i) => ["exact", "withholding"].includes(fitOf(cash, [i], client)));
  return fits.length ? [fits[0]] : [];
}

/** The proposals of each unmatched credit line of a page (a few indexed reads for the whole page). */
export async function proposalsFor(ex: Executor, lines: readonly BankLine[]): Promise<Map<number, Proposal[]>> {
  const open = lines.filter((x) => x.status === "unmatched" && compare(x.amount, "0") > 0);
  const out = new Map<number, Proposal[]>();
  if (!open.length) return out;
  const textOf = (x: BankLine) => `${x.narration} ${x.reference ?? ""}`;
  const clients = (await ex
    .select({
      id: schema.clients.id,
      name: schema.clients.name,
      whtRate: schema.clients.whtRate,
      withholdsVat: schema.clients.withholdsVat,
      taxRate: schema.clients.taxRate,
    })
    .from(schema.clients)
    .orderBy(asc(schema.clients.id))
    .limit(CLIENTS_READ)) as ClientRow[];
  const clientById = new Map(clients.map((c) => [c.id, c]));

  const numbers = [...new Set(open.flatMap((x) => invoiceNumbersIn(textOf(x))))];
  const byNumber = new Map<string, Invoice>();
  if (numbers.length)
    for (const i of await ex
      .select()
      .from(inv)
      .where(and(inArray(inv.invoiceNo, numbers), owedSql())))
      byNumber.set(i.invoiceNo, i);

  const accounts = [...new Set(open.flatMap((x) => accountNumbersIn(textOf(x))))];
  const clientOfAccount = new Map<string, number>();
  if (accounts.length)
    for (const a of await ex
      .select()
      .from(schema.clientBankAccounts)
      .where(inArray(schema.clientBankAccounts.accountNo, accounts)))
      clientOfAccount.set(a.accountNo, a.clientId);

  const named = new Map(open.map((x) => [x.id, clients.filter((c) => namesClient(x.narration, c.name)).slice(0, 3)]));
  const wanted = new Set<number>([...clientOfAccount.values(), ...[...named.values()].flat().map((c) => c.id)]);
  const owedByClient = new Map<number, OwedInvoice[]>();
  for (const clientId of wanted)
    owedByClient.set(
      clientId,
      (
        await ex
          .select()
          .from(inv)
          .where(and(eq(inv.clientId, clientId), owedSql()))
          .orderBy(asc(inv.expectedPaymentDate), asc(inv.id))
          .limit(OWED_READ)
      ).map(owedOf),
    );

  const rates = [
    ...new Map(
      clients.map((c) => [
        `${c.taxRate}/${c.whtRate}/${c.withholdsVat}`,
        { vatRate: c.taxRate, whtRate: c.whtRate, withholdsVat: c.withholdsVat },
      ]),
    ).values(),
  ];
  const candidates = [...new Set(open.flatMap((x) => settledCandidates(x.amount, rates)))];
  const byAmount = await owedByBalance(ex, candidates);

  for (const line of open) {
    const proposals: Proposal[] = [];
    const client = (id: number) => clientById.get(id);
    const inText = invoiceNumbersIn(textOf(line))
      .map((no) => byNumber.get(no))
      .filter((i) => !!i);
    for (const clientId of new Set(inText.map((i) => i.clientId))) {
      const c = client(clientId);
      if (!c) continue;
      const invoices = inText.filter((i) => i.clientId === clientId).map(owedOf);
      proposals.push({ rule: "invoice", clientId, clientName: c.name, invoices, fit: fitOf(line.amount, invoices, c) });
    }
    const byRule = (rule: "account" | "name", ids: number[]) => {
      for (const clientId of ids) {
        const c = client(clientId);
        const owed = owedByClient.get(clientId) ?? [];
        if (!c || !owed.length) continue;
        const invoices = bestOf(line.amount, owed, c);
        proposals.push({ rule, clientId, clientName: c.name, invoices, fit: fitOf(line.amount, invoices, c) });
      }
    };
    byRule(
      "account",
      accountNumbersIn(textOf(line))
        .map((a) => clientOfAccount.get(a))
        .filter((id) => id !== undefined),
    );
    byRule(
      "name",
      (named.get(line.id) ?? []).map((c) => c.id),
    );
    // Only the invoices whose balance is one of this line's candidates are weighed exactly: the
    // page's amount read answers up to three a candidate of every line on the page.
    const mine = new Set(settledCandidates(line.amount, rates));
    for (const i of byAmount) {
      const c = client(i.clientId);
      if (!c || !mine.has(balanceOf(i))) continue;
      const fit = fitOf(line.amount, [owedOf(i)], c);
      if (fit === "exact" || fit === "withholding")
        proposals.push({ rule: "amount", clientId: c.id, clientName: c.name, invoices: [owedOf(i)], fit });
    }
    out.set(line.id, rankProposals(proposals));
  }
  return out;
}

function lineWhere(f: BankLineFilters): SQL[] {
  return f.status ? [eq(l.status, f.status)] : [];
}

/** One page of bank lines, newest first, the unmatched credits with their proposals. */
export async function listBankLines(
  actor: Actor,
  filters: BankLineFilters = {},
  { limit = BANK_LINE_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
): Promise<Page<BankLineView>> {
  assertCan(actor, "bank.import", "bank-lines");
  const db = await getDb();
  const rows = await db
    .select({ line: l, bankAccountName: schema.bankAccounts.name })
    .from(l)
    .innerJoin(schema.bankAccounts, eq(schema.bankAccounts.id, l.bankAccountId))
    .where(and(...lineWhere(filters), keysetWhere(KEYSET, page)))
    .orderBy(...keysetOrder(KEYSET, page))
    .limit(limit + 1);
  const result = toPage(rows, limit, page, (x) => ({ key: x.line.lineDate, id: x.line.id }));
  const proposals = await proposalsFor(
    db,
    result.items.map((x) => x.line),
  );
  return {
    ...result,
    items: result.items.map(({ line, bankAccountName }) => ({
      id: line.id,
      bankAccountId: line.bankAccountId,
      bankAccountName,
      date: line.lineDate,
      amount: line.amount,
      narration: line.narration,
      reference: line.reference,
      status: line.status,
      receiptId: line.receiptId,
      proposals: proposals.get(line.id) ?? [],
    })),
  };
}

/** Every matching line, newest first, in keyset batches (the streamed JSON). */
export function bankLineBatches(actor: Actor, filters: BankLineFilters = {}) {
  assertCan(actor, "bank.import", "bank-lines");
  return keysetBatches(
    (page) => listBankLines(actor, filters, { limit: BANK_LINE_PAGE_SIZE, page }),
    (last) => ({ key: last.date, id: last.id }),
  );
}

/** A line as GET /api/bank-lines answers it. */
export const bankLineJson = (v: BankLineView) => ({
  id: v.id,
  bankAccountId: v.bankAccountId,
  bankAccountName: v.bankAccountName,
  date: v.date,
  amount: v.amount,
  narration: v.narration,
  reference: v.reference,
  status: v.status,
  receiptId: v.receiptId,
  proposals: v.proposals.map((p) => ({
    rule: p.rule,
    fit: p.fit,
    clientId: p.clientId,
    clientName: p.clientName,
    invoices: p.invoices.map((i) => ({ invoiceId: i.id, invoiceNo: i.invoiceNo, balance: i.balance })),
  })),
});
