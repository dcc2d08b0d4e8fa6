import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { PeriodCard } from "~/components/settings/period-card";
import { closeMonth, reopenMonth } from "~/models/period.server";
import { requireCapability } from "~/rules/capabilities.server";
import { PeriodFormSchema } from "~/schemas/periods";
import { formatMonth } from "~/utils/dates";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { redirectWithToast } from "~/utils/toast.server";
import { data } from "@remix-run/node";
import { readForm } from "~/utils/http.server";

// A page route (it renders the answer to a post); opened directly it is System Settings.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "period.close");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "period.close");
  const formData = await readForm(request);
  const intent = formData.get("intent") === "reopen" ? ("reopen" as const) : ("close" as const);
  const submission = parseWithZod(formData, { schema: PeriodFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    const answer = replyInvalid(submission);
    return data({ intent, result: answer.data.result }, { status: 400 });
  }
  const input = Object.fromEntries(formData);
  const result = intent === "reopen" ? await reopenMonth(user, input) : await closeMonth(user, input);
  if (!result.ok) {
    const answer = replyRefused(submission, result);
    return data({ intent, result: answer.data.result }, { status: result.status });
  }
  const through = result.state.closedThroughMonth;
  const now = through ? `closed through ${formatMonth(through)}` : "no month is closed";
  const title =
    intent === "reopen"
      ? `${formatMonth(submission.value.month)} reopened: ${now}`
      : result.changed
        ? `${formatMonth(submission.value.month)} closed: ${now}`
        : `${formatMonth(submission.value.month)} was already closed: ${now}`;
  return redirectWithToast("/settings", { title });
}

/** Rendered by System Settings in place of its Month Close card, with this answer's messages. */
export default function PeriodAnswerRoute() {
  const actionData = useActionData<typeof action>();
  return <PeriodCard answer={actionData} />;
}
