import { Form, Link } from "@remix-run/react";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";

// The Bank statement's lines (docs/decisions/1241): each unmatched credit with its proposed
// matches, each a small form with its Confirm button, and "Not a client receipt"; no JavaScript
// needed. A matched line links its receipt.

type ProposalView = {
  rule: "invoice" | "account" | "name" | "amount";
  fit: "exact" | "withholding" | "part" | "over" | "oldest";
  clientId: number;
  clientName: string;
  invoices: { id: number; invoiceNo: string; balance: string }[];
};

export type LineView = {
  id: number;
  date: string;
  amount: string;
  narration: string;
  reference: string | null;
  status: "unmatched" | "matched" | "not_receipt";
  receiptId: number | null;
  bankAccountName: string;
  proposals: ProposalView[];
};

const RULE_WORDS: Record<ProposalView["rule"], string> = {
  invoice: "Invoice number in the narration",
  account: "The client's account number",
  name: "The client's name",
  amount: "The amount",
};

const FIT_WORDS: Record<ProposalView["fit"], string> = {
  exact: "pays the balance",
  withholding: "short by the client's withholding",
  part: "pays part",
  over: "more than the balance: the rest goes to older invoices",
  oldest: "to the oldest due invoices",
};

const STATUS_WORDS: Record<LineView["status"], string> = {
  unmatched: "Unmatched",
  matched: "Matched",
  not_receipt: "Not a client receipt",
};

function ProposalForm({ line, p, n }: { line: LineView; p: ProposalView; n: number }) {
  const invoices = p.invoices.map((i) => `#${i.invoiceNo}`).join(", ");
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 p-2 dark:border-slate-700">
      <div className="min-w-0 text-sm">
        <p className="font-semibold">
          {p.clientName}
          {invoices ? ` · invoice ${invoices}` : ""}
        </p>
        <p className="text-slate-500">
          {RULE_WORDS[p.rule]} · {FIT_WORDS[p.fit]}
        </p>
        {p.invoices.length ? (
          <p className="text-slate-500">
            {p.invoices.map((i) => `#${i.invoiceNo} owes ${formatNaira(i.balance)}`).join(" · ")}
          </p>
        ) : null}
      </div>
      <Form method="post">
        <input type="hidden" name="intent" value="match" />
        <input type="hidden" name="lineId" value={line.id} />
        <input type="hidden" name="clientId" value={p.clientId} />
        <input type="hidden" name="invoiceIds" value={p.invoices.map((i) => i.id).join(",")} />
        <input type="hidden" name="idempotencyKey" value={`bank-line-${line.id}-${n}`} />
        <button
          type="submit"
          className="btn-primary"
          aria-label={`Confirm ${p.clientName}${invoices ? ` ${invoices}` : ""}`}
        >
          Confirm
        </button>
      </Form>
    </li>
  );
}

export function BankLineList({ lines }: { lines: LineView[] }) {
  if (!lines.length)
    return (
      <div className="card p-10 text-center">
        <p className="font-semibold">No bank lines</p>
        <p className="page-subtitle mt-1">Import a statement to see its lines here.</p>
      </div>
    );
  return (
    <ul className="card divide-y divide-slate-100 dark:divide-slate-800">
      {lines.map((line) => {
        const credit = !line.amount.startsWith("-");
        return (
          <li key={line.id} className="space-y-2 p-4" data-testid={`bank-line-${line.id}`}>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <div className="min-w-0">
                <p className="break-words font-semibold">{line.narration || "(no narration)"}</p>
                <p className="text-sm text-slate-500">
                  {formatDate(line.date)} · {line.bankAccountName}
                  {line.reference ? ` · ${line.reference}` : ""} · {STATUS_WORDS[line.status]}
                  {line.receiptId ? (
                    <>
                      {" · "}
                      <Link to={`/receipts/${line.receiptId}`} className="underline">
                        Receipt #{line.receiptId}
                      </Link>
                    </>
                  ) : null}
                </p>
              </div>
              <p className={`font-semibold tabular-nums ${credit ? "" : "text-slate-500"}`}>
                {credit ? formatNaira(line.amount) : `− ${formatNaira(line.amount.slice(1))}`}
              </p>
            </div>
            {line.status === "unmatched" ? (
              <>
                {line.proposals.length ? (
                  <ul className="space-y-2" aria-label={`Proposed matches for line ${line.id}`}>
                    {line.proposals.map((p, n) => (
                      <ProposalForm key={`${p.clientId}-${n}`} line={line} p={p} n={n} />
                    ))}
                  </ul>
                ) : (
                  <p className="text-sm text-slate-500">
                    No match proposed:{" "}
                    <Link to="/receipts/new" className="underline">
                      record the receipt
                    </Link>{" "}
                    by hand, or mark the line.
                  </p>
                )}
                <Form method="post">
                  <input type="hidden" name="intent" value="not-receipt" />
                  <input type="hidden" name="lineId" value={line.id} />
                  <button type="submit" className="btn-outline">
                    Not a client receipt
                  </button>
                </Form>
              </>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
