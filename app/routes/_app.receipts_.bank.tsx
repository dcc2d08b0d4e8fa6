import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { BankLineList, type LineView } from "~/components/bank/bank-line-list";
import { StatementImportForm } from "~/components/bank/statement-import-form";
import { FilterForm } from "~/components/filter-form";
import { FilterSelect } from "~/components/list-filters";
import { Breadcrumb, PageHeader } from "~/components/page-header";
import { Pager } from "~/components/pager";
import { importStatement, listBankAccounts, markNotReceipt } from "~/models/bank-statement.server";
import { listBankLines } from "~/presenters/bank-lines.server";
import { requireCapability } from "~/rules/capabilities.server";
import {
  BankMatchSchema,
  parseBankLineFilters,
  StatementFormSchema,
  statementFormConstraint,
} from "~/schemas/bank-statement";
import { formSchema, optionalText, requiredId } from "~/schemas/fields";
import { matchBankLine } from "~/services/bank/match-bank-line.server";
import { replyRefused } from "~/utils/form-reply.server";
import { readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { parseId, readPageRequest } from "~/utils/params";
import { readStatementUpload } from "~/utils/statement-upload.server";
import { redirectWithToast } from "~/utils/toast.server";

// The Bank statement (docs/decisions/1241), reached from Receipts: import a CSV from the bank's
// portal into an account (its column mapping saved for next time), then confirm each credit's
// proposed match as a receipt, or mark it as not a client receipt.
export const meta: MetaFunction = () => [{ title: "Bank statement · Management" }];

const MatchFormSchema = formSchema(
  BankMatchSchema.extend({
    intent: z.literal("match"),
    lineId: requiredId("Bank line"),
    idempotencyKey: optionalText("Request key", 200),
  }),
);
const NotReceiptFormSchema = formSchema(
  z.object({ intent: z.literal("not-receipt"), lineId: requiredId("Bank line") }),
);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "bank.import");
  const params = new URL(request.url).searchParams;
  const { filters } = parseBankLineFilters(params);
  const asked = readPageRequest(params, "date");
  const page = asked.invalid ? { cursor: null, direction: "older" as const } : asked;
  const [accounts, lines] = await Promise.all([listBankAccounts(user), listBankLines(user, filters, { page })]);
  const accountId = parseId(params.get("account"));
  const account = accounts.find((a) => a.id === accountId) ?? (params.get("account") === "new" ? null : accounts[0]);
  return {
    accounts: accounts.map((a) => ({ id: a.id, name: a.name })),
    account: account ? { id: account.id, name: account.name, mapping: account.mapping } : null,
    lines: lines.items.map((l): LineView => ({
      id: l.id,
      date: l.date,
      amount: l.amount,
      narration: l.narration,
      reference: l.reference,
      status: l.status,
      receiptId: l.receiptId,
      bankAccountName: l.bankAccountName,
      proposals: l.proposals.map((p) => ({
        rule: p.rule,
        fit: p.fit,
        clientId: p.clientId,
        clientName: p.clientName,
        invoices: p.invoices.map((i) => ({ id: i.id, invoiceNo: i.invoiceNo, balance: i.balance })),
      })),
    })),
    olderCursor: lines.olderCursor,
    newerCursor: lines.newerCursor,
    constraint: statementFormConstraint(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "bank.import");
  const back = `/receipts/bank${new URL(request.url).search}`;
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    const upload = await readStatementUpload(request);
    const submission = parseWithZod(upload.formData ?? new FormData(), {
      schema: StatementFormSchema,
      disableAutoCoercion: true,
    });
    if (!upload.ok)
      return replyRefused(submission, upload, {
        formMessage: `Failed to import: ${upload.message}`,
        always: true,
        hideFields: ["file"],
      });
    const result = await importStatement(user, upload.fields, upload.file);
    if (!result.ok)
      return replyRefused(submission, result, { formMessage: `Failed to import: ${result.message}`, always: true });
    return redirectWithToast(`/receipts/bank?account=${result.bankAccountId}&status=unmatched`, {
      title: "Statement imported",
      description: `${result.linesAdded} new lines, ${result.duplicates} already imported`,
    });
  }
  const formData = await readForm(request);
  const field = (name: string) => (typeof formData.get(name) === "string" ? (formData.get(name) as string) : "");
  const lineId = parseId(field("lineId")) ?? 0;
  if (field("intent") === "not-receipt") {
    const submission = parseWithZod(formData, { schema: NotReceiptFormSchema, disableAutoCoercion: true });
    const result = await markNotReceipt(user, lineId);
    if (!result.ok) return replyRefused(submission, result, { formMessage: result.message, always: true });
    return redirectWithToast(back, { title: "Marked as not a client receipt" });
  }
  const submission = parseWithZod(formData, { schema: MatchFormSchema, disableAutoCoercion: true });
  const result = await matchBankLine(
    user,
    lineId,
    { clientId: field("clientId"), invoiceIds: field("invoiceIds") },
    new Date(),
    { idempotencyKey: keyOf(null, field("idempotencyKey")) },
  );
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to confirm: ${result.message}`, always: true });
  return redirectWithToast(back, {
    title: "Receipt recorded",
    description: `Receipt #${result.receipt.id} from ${result.receipt.clientName}`,
  });
}

export default function BankStatementPage() {
  const { accounts, account, lines, olderCursor, newerCursor, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const importing = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
  const lastResult = actionData?.result;
  // A Confirm or Not a client receipt refused shows above the page; an import's, in its form.
  const intent = lastResult?.initialValue?.intent;
  const refusedElsewhere = intent === "match" || intent === "not-receipt" ? lastResult : undefined;
  return (
    <div className="space-y-4">
      <Breadcrumb to="/receipts">Receipts</Breadcrumb>
      <PageHeader title="Bank statement" subtitle="Import the bank's CSV, then confirm each credit as a receipt" />
      {refusedElsewhere?.error?.[""] ? (
        <p role="alert" className="card border-red-300 p-3 text-red-700">
          {refusedElsewhere.error[""].join(" ")}
        </p>
      ) : null}
      <section className="space-y-3" aria-labelledby="import-heading">
        <h2 id="import-heading" className="text-lg font-semibold">
          Import a statement
        </h2>
        <Form method="get" className="card flex flex-wrap items-end gap-3 p-4">
          <div className="min-w-0 flex-1">
            <label className="label" htmlFor="bank-account">
              Bank account
            </label>
            <select id="bank-account" name="account" className="input" defaultValue={account?.id ?? "new"}>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
              <option value="new">New account</option>
            </select>
          </div>
          <button type="submit" className="btn-outline">
            Use this account
          </button>
        </Form>
        <StatementImportForm
          key={account?.id ?? "new"}
          account={account}
          constraint={constraint}
          lastResult={refusedElsewhere ? undefined : lastResult}
          pending={importing}
        />
      </section>
      <section className="space-y-3" aria-labelledby="lines-heading">
        <h2 id="lines-heading" className="text-lg font-semibold">
          Lines
        </h2>
        <FilterForm label="Filter bank lines" clearTo="/receipts/bank" names={["status"]} className="sm:grid-cols-3">
          <FilterSelect
            name="status"
            label="Status"
            allLabel="All"
            options={[
              { value: "unmatched", label: "Unmatched" },
              { value: "matched", label: "Matched" },
              { value: "not_receipt", label: "Not a client receipt" },
            ]}
          />
        </FilterForm>
        <BankLineList lines={lines} />
        <Pager label="Bank line pages" olderCursor={olderCursor} newerCursor={newerCursor} />
      </section>
    </div>
  );
}
