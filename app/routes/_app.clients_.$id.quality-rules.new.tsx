import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { FormErrors, InputField, SubmitButton } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { getClient } from "~/models/client.server";
import { closedMonthReason, getClosedThrough } from "~/models/period.server";
import { addQualityRule } from "~/models/quality-rule.server";
import { requireCapability } from "~/rules/capabilities.server";
import { QualityRuleFormSchema, qualityRuleFormConstraint } from "~/schemas/quality-rules";
import { addDays, formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm, requireIdParam } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

// Add Rule (docs/decisions/1210): over the client's page with JavaScript, a page of its own without.
export const meta: MetaFunction = () => [{ title: "Add Quality Rule · Clients" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  const client = await getClient(requireIdParam(params.id, "Client not found"));
  invariantResponse(client, "Client not found");
  const today = todayIn(env().APP_TIME_ZONE);
  const closedThrough = await getClosedThrough();
  const constraint = qualityRuleFormConstraint(today);
  // A closed month would refuse the rule (decision 0901): the date box starts after it.
  if (closedThrough && constraint.validFrom) constraint.validFrom.min = addDays(closedThrough, 1);
  return {
    client: { id: client.id, name: client.name },
    today,
    closedNote: closedThrough ? closedMonthReason(closedThrough) : null,
    constraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const id = requireIdParam(params.id, "Client not found");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: QualityRuleFormSchema, disableAutoCoercion: true });
  // The write has rules of its own (a closed month, a day already taken): it always has the last word.
  const result = await addQualityRule(user, id, Object.fromEntries(formData));
  if (!result.ok) return replyRefused(submission, result, { formMessage: `Failed to add rule: ${result.message}` });
  return redirectWithToast(`/clients/${id}`, {
    title: "Quality rule added",
    description: `From ${formatDate(result.rule.validFrom)}: ${result.rule.moistureThreshold}% threshold, ${result.rule.deductionPerPoint}% per point`,
  });
}

export default function AddQualityRule() {
  const { client, today, closedNote, constraint } = useLoaderData<typeof loader>();
  const pending = useIsPending();
  const [form, fields] = useForm<{ validFrom: string; moistureThreshold: string; deductionPerPoint: string }>({
    lastResult: useActionData<typeof action>()?.result,
    constraint,
    defaultValue: { validFrom: today, moistureThreshold: "", deductionPerPoint: "" },
  });
  return (
    <Dialog title="Add Quality Rule" description={client.name} closeTo={`/clients/${client.id}`} size="sm">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={pending ? null : form.errors} id={form.errorId} />
        <InputField
          meta={fields.validFrom}
          label="Valid from"
          type="date"
          description={`It holds from this day until the client's next rule.${closedNote ? ` ${closedNote}` : ""}`}
        />
        <InputField
          meta={fields.moistureThreshold}
          label="Moisture threshold (%)"
          type="number"
          inputMode="decimal"
          description="Moisture above this percent costs weight."
        />
        <InputField
          meta={fields.deductionPerPoint}
          label="Deduction per point (%)"
          type="number"
          inputMode="decimal"
          description="Percent of the received weight deducted per point of moisture above the threshold."
        />
        <SubmitButton pending={pending} pendingLabel="Saving..." className="btn-primary w-full">
          Add Rule
        </SubmitButton>
      </Form>
    </Dialog>
  );
}
