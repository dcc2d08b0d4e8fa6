import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { NoticeDialog } from "~/components/dialog";
import { MoneyField, SelectField } from "~/components/forms";
import { ClientCreditDialog } from "~/components/payments/client-credit-dialog";
import { getInvoice } from "~/presenters/invoice-list.server";
import { CREDIT_MOVE_TARGETS, listCreditMoveTargets } from "~/presenters/payments.server";
import { applyClientCredit } from "~/services/payments/apply-credit.server";
import { can, requireCapability } from "~/rules/capabilities.server";
import { clientCreditOf } from "~/rules/invoices.server";
import { ApplyCreditFormSchema, applyCreditFormConstraint } from "~/schemas/payment";
import { formatDate } from "~/utils/dates";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { compare, formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

// Apply Credit (docs/decisions/0920): the
// credit an invoice carries moved to another invoice of the same client that still owes;
// managers and admins; over the invoice's page with JavaScript, a page of its own without, and
// back to that page.
export const meta: MetaFunction = () => [{ title: "Apply Credit · Invoices" }];

function invoiceIdOf(params: LoaderFunctionArgs["params"]) {
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const invoice = await getInvoice(user, invoiceIdOf(params));
  invariantResponse(invoice, "Invoice not found");
  const credit = clientCreditOf({ ...invoice, paymentStatus: invoice.storedStatus });
  return {
    invoice: { id: invoice.id, invoiceNo: invoice.invoiceNo, clientName: invoice.clientName },
    credit,
    targets: credit === "0.00" ? [] : await listCreditMoveTargets(user, invoice.clientId, invoice.id),
    // Sent with the data: a .server module's constant is not in the browser's bundle.
    targetsLimit: CREDIT_MOVE_TARGETS,
    canRefund: can(user, "payment.refund"),
    // One key per opened form: a double tap or a retry moves the credit once.
    idempotencyKey: crypto.randomUUID(),
    constraint: applyCreditFormConstraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const id = invoiceIdOf(params);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ApplyCreditFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const result = await applyClientCredit(user, id, input, new Date(), { idempotencyKey: keyOf(null, field) });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to move the credit: ${result.message}` });
  return redirectWithToast(`/invoices/${id}`, {
    title: "Credit moved",
    description: `${formatNaira(result.moveIn.amount)} moved to Invoice #${result.to.invoiceNo}`,
  });
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

/** The smaller of two amounts, compared as decimals. */
const lesserOf = (a: string, b: string) => (compare(a, b) <= 0 ? a : b);

export default function ApplyCreditRoute() {
  const { invoice, credit, targets, targetsLimit, canRefund, idempotencyKey, constraint } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<{ toInvoiceId: string; amount: string; idempotencyKey: string }>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: { amount: credit, idempotencyKey },
  });
  const back = `/invoices/${invoice.id}`;
  if (credit === "0.00" || targets.length === 0) {
    return (
      <NoticeDialog
        title="Nothing to apply"
        closeTo={back}
        actions={
          credit !== "0.00" && canRefund ? (
            <Link to={`${back}/refund`} className="btn-outline">
              Refund Credit
            </Link>
          ) : null
        }
      >
        {credit === "0.00"
          ? "This invoice carries no client credit."
          : `No other invoice of ${invoice.clientName} owes anything.${canRefund ? " The credit can be refunded instead." : ""}`}
      </NoticeDialog>
    );
  }
  return (
    <ClientCreditDialog
      title="Apply Credit"
      invoice={invoice}
      credit={credit}
      form={form}
      keyField={fields.idempotencyKey}
      note="Moved to another invoice of this client that still owes: no money changes hands."
      submitLabel="Move Credit"
      pendingLabel="Moving..."
    >
      <SelectField
        meta={fields.toInvoiceId}
        label="To invoice"
        // With JavaScript the amount follows the choice: the credit, or what the invoice owes if less.
        onChange={(event) => {
          const target = targets.find((t) => String(t.id) === event.currentTarget.value);
          const amount = event.currentTarget.form?.elements.namedItem(fields.amount.name);
          // The fields are uncontrolled: the form posts what the input holds.
          if (target && amount instanceof HTMLInputElement) amount.value = lesserOf(credit, target.balance);
        }}
        description={targets.length === targetsLimit ? `The ${targetsLimit} oldest due are listed.` : undefined}
      >
        <option value="">Choose an invoice</option>
        {targets.map((t) => (
          <option key={t.id} value={t.id}>
            {`Invoice #${t.invoiceNo} · owes ${formatNaira(t.balance)} · due ${formatDate(t.expectedPaymentDate)}`}
          </option>
        ))}
      </SelectField>
      <MoneyField meta={fields.amount} label="Amount (₦)" />
    </ClientCreditDialog>
  );
}
