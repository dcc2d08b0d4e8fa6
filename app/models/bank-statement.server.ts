// The bank statement import's writes (docs/decisions/1241), other than a match (a receipt, in
// app/services/bank/match-bank-line.server.ts): reading a statement into its account's lines, each
// line once however often an overlapping statement is read again, and marking a line as no
// client receipt. Bank lines are not money rows; these writes are audited, in one transaction.
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, schema, type BankAccount, type BankMapping, type Tx } from "~/db.server";
import { recordAudit } from "~/models/audit.server";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import {
  applyMapping,
  fingerprints,
  MAX_STATEMENT_BYTES,
  readCsv,
  type StatementLine,
} from "~/rules/bank-statement.server";
import { StatementMappingSchema, type StatementMappingInput } from "~/schemas/bank-statement";
import { parseFields } from "~/schemas/parse-fields.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { fail, failOn, Refusal, type Failure } from "~/utils/result";

/** Lines inserted per statement: a batch of a 10,000-line file. */
const INSERT_BATCH = 500;

export type ImportedStatement = {
  statementId: number;
  bankAccountId: number;
  bankAccountName: string;
  linesRead: number;
  linesAdded: number;
  /** Lines already held from an earlier statement. */
  duplicates: number;
  /** Rows under the header with no amount (opening balance, totals). */
  skipped: number;
};

/** The bank accounts, by name (a business has a handful). */
export async function listBankAccounts(actor: Actor) {
  assertCan(actor, "bank.import", "bank-accounts");
  const a = schema.bankAccounts;
  return (await getDb())
    .select({ id: a.id, name: a.name, accountNo: a.accountNo, mapping: a.mapping })
    .from(a)
    .orderBy(asc(sql`lower(${a.name})`), asc(a.id))
    .limit(100);
}

export const mappingOf = (m: StatementMappingInput): BankMapping => ({
  dateColumn: m.dateColumn,
  dateFormat: m.dateFormat,
  narrationColumn: m.narrationColumn,
  referenceColumn: m.referenceColumn ?? undefined,
  amountStyle: m.amountStyle,
  amountColumn: m.amountStyle === "signed" ? (m.amountColumn ?? undefined) : undefined,
  creditColumn: m.amountStyle === "split" ? (m.creditColumn ?? undefined) : undefined,
  debitColumn: m.amountStyle === "split" ? (m.debitColumn ?? undefined) : undefined,
});

/** The account a statement is read into, locked (two imports of one account queue), its mapping saved. */
async function accountFor(tx: Tx, input: StatementMappingInput, mapping: BankMapping, actor: Actor) {
  const a = schema.bankAccounts;
  let account: BankAccount | undefined;
  if (input.bankAccountId) {
    [account] = await tx.select().from(a).where(eq(a.id, input.bankAccountId)).for("update");
    if (!account) throw new Refusal(failOn(404, "bankAccountId", "Bank account not found"));
  } else {
    const name = input.accountName!;
    [account] = await tx
      .insert(a)
      .values({ name, accountNo: input.accountNo ?? null, createdBy: actor.id })
      .onConflictDoNothing()
      .returning();
    if (!account)
      throw new Refusal(
        failOn(409, "accountName", `A bank account named "${name}" already exists: choose it from the list`),
      );
  }
  const [saved] = await tx
    .update(a)
    .set({ mapping, accountNo: input.accountNo ?? account.accountNo, updatedAt: sql`now()` })
    .where(eq(a.id, account.id))
    .returning();
  return saved;
}

async function insertLines(tx: Tx, accountId: number, statementId: number, lines: StatementLine[]) {
  const prints = fingerprints(lines);
  let added = 0;
  for (let i = 0; i < lines.length; i += INSERT_BATCH) {
    const batch = lines.slice(i, i + INSERT_BATCH).map((l, j) => ({
      bankAccountId: accountId,
      statementId,
      lineDate: l.date,
      amount: l.amount,
      narration: l.narration,
      reference: l.reference,
      fingerprint: prints[i + j],
      // A debit is money out: never a client receipt, never waiting for one.
      status: l.amount.startsWith("-") ? ("not_receipt" as const) : ("unmatched" as const),
    }));
    const inserted = await tx
      .insert(schema.bankLines)
      .values(batch)
      .onConflictDoNothing({ target: [schema.bankLines.bankAccountId, schema.bankLines.fingerprint] })
      .returning({ id: schema.bankLines.id });
    added += inserted.length;
  }
  return added;
}

/**
 * Reads `text` (a CSV from the bank's portal) into the account's lines with the mapping given,
 * which is saved on the account for next time. Lines held already are not added again. A file
 * that is no CSV, too large, or that the mapping does not fit is refused with nothing written.
 */
export async function importStatement(
  actor: Actor,
  fields: Record<string, unknown>,
  file: { name: string; text: string },
  now = new Date(),
): Promise<({ ok: true } & ImportedStatement) | Failure> {
  const refused = refuse(actor, "bank.import", "bank-statements");
  if (refused) return refused;
  const parsed = parseFields(StatementMappingSchema, fields);
  if (!parsed.ok) return parsed;
  if (Buffer.byteLength(file.text) > MAX_STATEMENT_BYTES)
    return fail(413, `The file is over ${MAX_STATEMENT_BYTES / 1024 / 1024} MB: split it by dates`, {
      file: [`At most ${MAX_STATEMENT_BYTES / 1024 / 1024} MB`],
    });
  const rows = readCsv(file.text);
  if (!Array.isArray(rows)) return rows;
  const mapping = mappingOf(parsed.data);
  const read = applyMapping(rows, mapping, todayIn(env().APP_TIME_ZONE, now));
  if (!read.ok) return read;
  const { lines, skipped } = read.data;
  const fileName = file.name.slice(0, 200) || "statement.csv";
  try {
    return await (
      await getDb()
    ).transaction(async (tx) => {
      const account = await accountFor(tx, parsed.data, mapping, actor);
      const [statement] = await tx
        .insert(schema.bankStatements)
        .values({ bankAccountId: account.id, fileName, linesRead: lines.length, linesAdded: 0, createdBy: actor.id })
        .returning();
      const added = await insertLines(tx, account.id, statement.id, lines);
      await tx
        .update(schema.bankStatements)
        .set({ linesAdded: added })
        .where(eq(schema.bankStatements.id, statement.id));
      const result = {
        statementId: statement.id,
        bankAccountId: account.id,
        bankAccountName: account.name,
        linesRead: lines.length,
        linesAdded: added,
        duplicates: lines.length - added,
        skipped,
      };
      await recordAudit(tx, {
        actor,
        action: "bank_statement.import",
        entityType: "bank_statement",
        entityId: statement.id,
        before: null,
        after: { fileName, bankAccount: account.name, linesRead: lines.length, linesAdded: added },
      });
      return { ok: true as const, ...result };
    });
  } catch (error) {
    if (error instanceof Refusal) return error.failure;
    throw error;
  }
}

export const LINE_DECIDED = "This bank line was already matched or marked";

/** Marks an unmatched line as no client receipt (a loan, a refund, a transfer between accounts). */
export async function markNotReceipt(actor: Actor, lineId: number): Promise<{ ok: true; id: number } | Failure> {
  const refused = refuse(actor, "bank.import", `bank-line/${lineId}`);
  if (refused) return refused;
  const l = schema.bankLines;
  return (await getDb()).transaction(async (tx) => {
    // Only an unmatched line changes: of two people deciding one line, the second is told so.
    const [line] = await tx
      .update(l)
      .set({ status: "not_receipt", decidedBy: actor.id, decidedAt: sql`now()` })
      .where(and(eq(l.id, lineId), eq(l.status, "unmatched")))
      .returning();
    if (!line) {
      const [exists] = await tx.select({ status: l.status }).from(l).where(eq(l.id, lineId));
      return exists ? fail(409, LINE_DECIDED) : fail(404, "Bank line not found");
    }
    await recordAudit(tx, {
      actor,
      action: "bank_line.not_receipt",
      entityType: "bank_line",
      entityId: line.id,
      before: null,
      after: { lineDate: line.lineDate, amount: line.amount, narration: line.narration },
    });
    return { ok: true as const, id: line.id };
  });
}
