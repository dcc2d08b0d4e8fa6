// Confirm a bank line's match (docs/decisions/1241): the line's credit becomes a receipt from the
// client chosen (decision 1240: its payments and withholdings, on the invoices named in the
// order given, then the client's oldest due), and the line names that receipt, in one
// transaction on the keyed write pipeline (decision 0805). The line is locked first: two people
// confirming it at the same moment queue there, and the second is refused (409) with nothing
// written. A unique index on bank_lines.receipt_id backs it. The ten-digit account numbers in the
// narration are remembered as the client's, for the next statement's proposals.
import { eq } from "drizzle-orm";
import { getDb, schema, type BankLine } from "~/db.server";
import { LINE_DECIDED } from "~/models/bank-statement.server";
import { receiptView, type ReceiptView } from "~/models/receipt.server";
import type { Actor } from "~/rules/capabilities.server";
import { accountNumbersIn, planMatch } from "~/rules/bank-matching";
import { balanceOf } from "~/rules/invoices.server";
import { BankMatchSchema } from "~/schemas/bank-statement";
import { parseFields } from "~/schemas/parse-fields.server";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { recordReceiptCommand } from "~/services/receipts/record-receipt.server";
import { compare } from "~/utils/money";
import { fail, type Failure } from "~/utils/result";

type ReceiptCommand = typeof recordReceiptCommand;
type ReceiptInput = Parameters<ReceiptCommand["write"]>[1];
type ReceiptLocked = Parameters<ReceiptCommand["write"]>[2];

type Input = { lineId: number; invoiceIds: number[]; narration: string; receipt: ReceiptInput };
type Locked = { line: BankLine; receipt: ReceiptLocked };
type Made = { receipt: ReceiptView; lineId: number };
type MatchResult = ({ ok: true; replayed: boolean } & Made) | Failure;

const alreadyDecided = (line: Pick<BankLine, "status" | "receiptId">) =>
  line.status === "matched" ? `This bank line is already matched to receipt #${line.receiptId}` : LINE_DECIDED;

const matchCommand: KeyedCommand<Input, Locked, Made> = {
  capability: "bank.import",
  object: (input) => `bank-line/${String(input.lineId ?? "")}/match`,
  scope: "bank-line.match",
  async parse(input, context) {
    const lineId = input.lineId as number;
    const parsed = parseFields(BankMatchSchema, input);
    if (!parsed.ok) return parsed;
    const l = schema.bankLines;
    const [line] = await (await getDb()).select().from(l).where(eq(l.id, lineId));
    if (!line) return fail(404, "Bank line not found");
    if (compare(line.amount, "0") <= 0) return fail(409, "A debit is money out, not a client receipt");
    // A line decided already is refused under its lock, after the request key: a retry replays.
    // The receipt's own reading of its fields and date (a line before the app's first business day).
    const receipt = await recordReceiptCommand.parse(
      { clientId: parsed.data.clientId, date: line.lineDate, amount: line.amount, reference: line.reference ?? "" },
      context,
    );
    if (!receipt.ok) return receipt;
    return {
      ok: true,
      data: { lineId, invoiceIds: parsed.data.invoiceIds, narration: line.narration, receipt: receipt.data },
    };
  },
  hash: ({ lineId, invoiceIds, receipt }) => ({ lineId, invoiceIds, clientId: receipt.clientId }),
  async replay(tx, resourceId, input) {
    const receipt = await receiptView(tx, Number(resourceId));
    return receipt ? { receipt, lineId: input.lineId } : refuseWith(fail(409, LINE_DECIDED));
  },
  async lock(tx, input, context) {
    const l = schema.bankLines;
    const [line] = await tx.select().from(l).where(eq(l.id, input.lineId)).for("update");
    if (!line) refuseWith(fail(404, "Bank line not found"));
    if (line.status !== "unmatched") refuseWith(fail(409, alreadyDecided(line)));
    // Then the receipt's rows, in its own order: the invoices named and the client's owed ones.
    const chosen = input.invoiceIds.map((invoiceId) => ({ invoiceId, amount: "0.01" }));
    const receipt = await recordReceiptCommand.lock(tx, { ...input.receipt, allocations: chosen }, context);
    return { line, receipt };
  },
  landsOn: ({ receipt }) => receipt.date,
  async write(tx, input, locked, context) {
    const { client, invoices } = locked.receipt;
    const byId = new Map(invoices.map((i) => [i.id, i]));
    // Invoices of another client, void or unknown are left in: the receipt's plan refuses them by name.
    const named = input.invoiceIds.map((id) => byId.get(id));
    const allocations = named.every((i) => i && i.clientId === client.id && compare(balanceOf(i), "0") > 0)
      ? planMatch(
          input.receipt.amount,
          named.map((i) => ({ id: i!.id, invoiceNo: i!.invoiceNo, balance: balanceOf(i!), taxRate: i!.taxRate })),
          client,
        )
      : input.invoiceIds.map((invoiceId) => ({ invoiceId, amount: byId.get(invoiceId)?.amount ?? "0.01" }));
    const receiptInput = { ...input.receipt, allocations: allocations.length ? allocations : undefined };
    const written = await recordReceiptCommand.write(tx, receiptInput, locked.receipt, context);
    const receiptId = written.made.receipt.id;
    const l = schema.bankLines;
    await tx
      .update(l)
      .set({ status: "matched", receiptId, decidedBy: context.actor.id, decidedAt: context.now })
      .where(eq(l.id, locked.line.id));
    const numbers = accountNumbersIn(input.narration);
    if (numbers.length)
      await tx
        .insert(schema.clientBankAccounts)
        .values(numbers.map((accountNo) => ({ accountNo, clientId: client.id })))
        .onConflictDoNothing();
    return {
      made: { receipt: written.made.receipt, lineId: locked.line.id },
      resourceId: receiptId,
      audit: [
        ...written.audit,
        {
          action: "bank_line.match",
          entityType: "bank_line",
          entityId: locked.line.id,
          before: null,
          after: {
            lineDate: locked.line.lineDate,
            amount: locked.line.amount,
            narration: locked.line.narration,
            receiptId,
            clientName: client.name,
          },
        },
      ],
    };
  },
};

/**
 * Confirms `lineId`'s match to `input` ({ clientId, invoiceIds? }): records the receipt and links
 * the line, once. Idempotent under `idempotencyKey`; refused in a closed month.
 */
export function matchBankLine(
  actor: Actor,
  lineId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<MatchResult> {
  return keyedWrite(matchCommand, actor, { ...input, lineId }, { idempotencyKey, now });
}
