// The Record Payment dialog's loader and action, shared by its two routes: over the invoices
// list (/invoices/:id/pay) and over the invoice page (/invoices/:id/payment). One flow, one
// command call. Routes have no folder of their own for server code they share, so it sits here,
// beside the command it calls (app/services/payments/record-payment.server.ts).
import { parseWithZod } from "@conform-to/zod/v4";
import { getInvoice } from "~/presenters/invoice-list.server";
import { recordPayment } from "~/services/payments/record-payment.server";
import { requireCapability } from "~/rules/capabilities.server";
import { RecordPaymentFormSchema, recordPaymentFormConstraint } from "~/schemas/payment";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";

export async function loadRecordPayment(request: Request, idParam: string | undefined) {
  const user = await requireCapability(request, "payment.record");
  const id = parseId(idParam);
  invariantResponse(id, "Invoice not found");
  const invoice = await getInvoice(user, id);
  invariantResponse(invoice, "Invoice not found");
  // One key per opened form: a double tap or a retry of the same submission replays it.
  const today = todayIn(env().APP_TIME_ZONE);
  return { invoice, today, idempotencyKey: crypto.randomUUID(), constraint: recordPaymentFormConstraint(today) };
}

export async function submitRecordPayment(
  request: Request,
  idParam: string | undefined,
  redirectTo: (invoiceId: number) => string,
) {
  const user = await requireCapability(request, "payment.record");
  const id = parseId(idParam);
  invariantResponse(id, "Invoice not found");
  const formData = await readForm(request);
  // The model has the last word on every field (see RecordPaymentFormSchema).
  const submission = parseWithZod(formData, { schema: RecordPaymentFormSchema, disableAutoCoercion: true });
  const form = Object.fromEntries(formData);
  const { idempotencyKey: field, ...input } = form;
  const result = await recordPayment(user, { ...input, invoiceId: id }, new Date(), {
    idempotencyKey: keyOf(null, field),
  });
  if (!result.ok)
    return replyRefused(submission, result, {
      formMessage: `Failed to record payment: ${result.message}`,
      always: true,
    });
  return redirectWithToast(redirectTo(id), { title: "Payment recorded successfully" });
}
