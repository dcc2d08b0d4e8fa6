// Record Receipt (docs/decisions/1240): one transfer from a client, over one or more of its
// invoices. Each allocation settles an invoice with cash (a payment) plus what the client
// withheld (a withholding: WHT on the VAT-exclusive amount, and the VAT for a client that withholds
// it). Invoices chosen by hand come first; the cash left goes to the client's other invoices still
// owed, oldest due first. Every invoice it may touch is locked first, in id order, so two receipts
// racing for one balance queue and the second sees what the first settled. Runs on the keyed write
// pipeline (decision 0805).
import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { schema, type Client, type Invoice, type Tx } from "~/db.server";
import { lockKeptTotals } from "~/models/payment.server";
import { receiptView, type ReceiptView } from "~/models/receipt.server";
import type { Actor } from "~/rules/capabilities.server";
import { balanceOf, isVoid, owedSql, statusAfterSettlement } from "~/rules/invoices.server";
import { settle, settleFromCash, type Settlement } from "~/rules/withholding";
import { parseFields } from "~/schemas/parse-fields.server";
import { ReceiptSchema, type ReceiptInput } from "~/schemas/receipt";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { businessDateRefusal } from "~/utils/business-dates";
import { formatDate } from "~/utils/dates";
import { add, compare, formatNaira, sub, toFixed } from "~/utils/money";
import { failOn, type Failure } from "~/utils/result";

type Input = ReceiptInput & { date: string };
type Locked = { client: Client; invoices: Invoice[] };
type Recorded = { receipt: ReceiptView };
type RecordReceiptResult = ({ ok: true; replayed: boolean } & Recorded) | Failure;

/** One invoice's share of a receipt, as the write lands it. */
type Planned = Settlement & { invoice: Invoice };

export const receiptNotSettled = (left: string) =>
  `${formatNaira(left)} of this receipt settles no invoice: the client owes nothing more on or before its date`;

/**
 * The receipt's allocations: the chosen ones as given, then the cash left over the client's other
 * invoices still owed, oldest due first. Refuses (nothing written) what does not add up.
 */
export function planAllocations(input: Input, { client, invoices }: Locked): Planned[] {
  const rates = (invoice: Invoice) => ({
    vatRate: invoice.taxRate,
    whtRate: client.whtRate,
    withholdsVat: client.withholdsVat,
  });
  const byId = new Map(invoices.map((i) => [i.id, i]));
  const planned: Planned[] = [];
  let cashLeft = input.amount;
  for (const { invoiceId, amount } of input.allocations ?? []) {
    const invoice = byId.get(invoiceId);
    if (!invoice || invoice.clientId !== client.id)
      refuseWith(failOn(400, "allocations", `Invoice id ${invoiceId} is not an invoice of ${client.name}`));
    if (isVoid(invoice)) refuseWith(failOn(409, "allocations", `Invoice #${invoice.invoiceNo} is void`));
    if (input.date < invoice.issueDate)
      refuseWith(
        failOn(
          400,
          "date",
          `Invoice #${invoice.invoiceNo} was issued on ${formatDate(invoice.issueDate)}, after this receipt`,
        ),
      );
    const balance = balanceOf(invoice);
    if (compare(amount, balance) > 0)
      refuseWith(
        failOn(
          409,
          "allocations",
          `${formatNaira(amount)} is more than invoice #${invoice.invoiceNo}'s balance of ${formatNaira(balance)}`,
        ),
      );
    const share = settle(amount, rates(invoice));
    cashLeft = toFixed(sub(cashLeft, share.cash));
    planned.push({ ...share, invoice });
  }
  if (compare(cashLeft, "0") < 0) {
    const cash = toFixed(add("0", ...planned.map((p) => p.cash)));
    refuseWith(
      failOn(
        409,
        "allocations",
        `The allocations take ${formatNaira(cash)} of cash after withholding, more than the ${formatNaira(input.amount)} received`,
      ),
    );
  }
  const chosen = new Set(planned.map((p) => p.invoice.id));
  const oldestDueFirst = invoices
    .filter((i) => !chosen.has(i.id) && i.clientId === client.id && !isVoid(i) && i.issueDate <= input.date)
    .filter((i) => compare(balanceOf(i), "0") > 0)
    .sort((a, b) => a.expectedPaymentDate.localeCompare(b.expectedPaymentDate) || a.id - b.id);
  for (const invoice of oldestDueFirst) {
    if (compare(cashLeft, "0") <= 0) break;
    const share = settleFromCash(cashLeft, balanceOf(invoice), rates(invoice));
    cashLeft = toFixed(sub(cashLeft, share.cash));
    planned.push({ ...share, invoice });
  }
  if (compare(cashLeft, "0") > 0) refuseWith(failOn(409, "amount", receiptNotSettled(cashLeft)));
  return planned;
}

/** Exported for the bank line match, which records its receipt inside its own write (decision 1241). */
export const recordReceiptCommand: KeyedCommand<Input, Locked, Recorded> = {
  capability: "payment.record",
  object: (input) => `client/${String(input.clientId ?? "")}/receipts`,
  scope: "receipt.create",
  parse(input, { today }) {
    const parsed = parseFields(ReceiptSchema, input);
    if (!parsed.ok) return parsed;
    const date = parsed.data.date ?? today;
    const badDate = businessDateRefusal("Date", date, today, 0);
    if (badDate) return failOn(400, "date", badDate);
    return { ok: true, data: { ...parsed.data, date } };
  },
  // The date as sent: a receipt without one is the same request tomorrow.
  hash: ({ clientId, amount, reference, allocations }) => ({ clientId, amount, reference, allocations }),
  async replay(tx, resourceId) {
    const receipt = await receiptView(tx, Number(resourceId));
    return receipt ? { receipt } : refuseWith({ ok: false, status: 409, message: "This receipt was already recorded" });
  },
  async lock(tx, input) {
    const [client] = await tx.select().from(schema.clients).where(eq(schema.clients.id, input.clientId));
    if (!client) refuseWith(failOn(404, "clientId", "Client not found"));
    const inv = schema.invoices;
    const chosen = (input.allocations ?? []).map((a) => a.invoiceId);
    // The client's invoices still owed (the cash left may reach any of them) and those chosen by
    // hand, in id order: a receipt racing another for a balance waits here, then reads it anew.
    const owedOfClient = and(eq(inv.clientId, client.id), owedSql(), lte(inv.issueDate, input.date));
    const invoices = await tx
      .select()
      .from(inv)
      .where(chosen.length ? or(owedOfClient, inArray(inv.id, chosen)) : owedOfClient)
      .orderBy(asc(inv.id))
      .for("update");
    return { client, invoices };
  },
  landsOn: ({ date }) => date,
  closedField: "date",
  async write(tx, input, locked, { actor }) {
    const planned = planAllocations(input, locked);
    // Several invoices' kept totals in one write: their tables whole, as a credit move does.
    if (planned.length > 1) await lockKeptTotals(tx);
    const [receipt] = await tx
      .insert(schema.receipts)
      .values({
        clientId: locked.client.id,
        receiptDate: input.date,
        amount: input.amount,
        reference: input.reference ?? null,
        createdBy: actor.id,
      })
      .returning();
    await landAllocations(tx, receipt.id, input, planned, actor);
    const view = (await receiptView(tx, receipt.id))!;
    return {
      made: { receipt: view },
      resourceId: receipt.id,
      audit: [
        {
          action: "receipt.create",
          entityType: "receipt",
          entityId: receipt.id,
          before: null,
          after: {
            ...receipt,
            clientName: locked.client.name,
            whtRate: locked.client.whtRate,
            withholdsVat: locked.client.withholdsVat,
            allocations: view.allocations.map(({ invoiceNo, amount, cash, wht, vatWithheld }) => ({
              invoiceNo,
              amount,
              cash,
              wht,
              vatWithheld,
            })),
          },
        },
      ],
    };
  },
};

/** Each allocation's payment and withholding, and its invoice's new totals and status. */
async function landAllocations(tx: Tx, receiptId: number, input: Input, planned: Planned[], actor: Actor) {
  for (const { invoice, cash, wht, vatWithheld } of [...planned].sort((a, b) => a.invoice.id - b.invoice.id)) {
    if (compare(cash, "0") > 0)
      await tx.insert(schema.payments).values({
        invoiceId: invoice.id,
        amount: cash,
        paymentDate: input.date,
        reference: input.reference ?? null,
        receiptId,
        createdBy: actor.id,
      });
    const withheld = toFixed(add(wht, vatWithheld));
    if (compare(withheld, "0") > 0)
      await tx.insert(schema.withholdings).values({
        receiptId,
        invoiceId: invoice.id,
        clientId: invoice.clientId,
        withholdingDate: input.date,
        wht,
        vat: vatWithheld,
        createdBy: actor.id,
      });
    const amountPaid = toFixed(add(invoice.amountPaid, cash));
    const amountWithheld = toFixed(add(invoice.amountWithheld, withheld));
    const paymentStatus = statusAfterSettlement({ ...invoice, amountPaid, amountWithheld });
    await tx
      .update(schema.invoices)
      .set({ amountPaid, amountWithheld, paymentStatus, updatedAt: sql`now()` })
      .where(eq(schema.invoices.id, invoice.id));
  }
}

/**
 * Records a receipt and its allocations in one transaction: idempotent under `idempotencyKey`,
 * refused in a closed month, audited.
 */
export function recordReceipt(
  actor: Actor,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<RecordReceiptResult> {
  return keyedWrite(recordReceiptCommand, actor, input, { idempotencyKey, now });
}
