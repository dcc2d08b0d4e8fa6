import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { RatesForm } from "~/components/settings/system-cards";
import { loadSystemSettings, updateSettings, type SystemSettingsData } from "~/models/settings.server";
import { RatesFormSchema } from "~/schemas/settings";
import { requireCapability } from "~/rules/capabilities.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

// A page route (it renders the answer to a post); opened directly it is System Settings.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "settings.manage");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "settings.manage");
  const formData = await readForm(request);
  // No coercion: an emptied box must reach its field's rule as "" (an absent key would skip it).
  const submission = parseWithZod(formData, { schema: RatesFormSchema, disableAutoCoercion: true });
  // Every message goes under its own field, all at once (not only the first, not as a toast).
  if (submission.status !== "success") return replyInvalid(submission);
  const result = await updateSettings(user, Object.fromEntries(formData));
  if (!result.ok && result.status === 409) {
    // Someone else saved after this form was read: it starts again from what is saved now (a
    // refused post does not revalidate the page's data, so the answer carries it).
    return replyRefused(submission, result, { extra: { saved: await loadSystemSettings(user) } });
  }
  if (!result.ok) return replyRefused(submission, result);
  return redirectWithToast("/settings", { title: "Settings updated successfully" });
}

/** Rendered by System Settings in place of its rates card, with this answer's messages. */
export default function RatesAnswer() {
  const actionData = useActionData<typeof action>();
  const saved = (actionData as { saved?: SystemSettingsData } | undefined)?.saved;
  if (saved) return <RatesForm key={saved.version} saved={saved} notice={actionData?.result.error?.[""]?.[0]} />;
  return <RatesForm lastResult={actionData?.result} />;
}
