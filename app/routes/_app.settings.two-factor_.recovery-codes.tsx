import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { Dialog } from "~/components/dialog";
import { ConfirmFooter } from "~/components/forms";
import { RecentPasswordField } from "~/components/forms/recent-password-field";
import { confirmRecentAuth, isRecentlyAuthenticated } from "~/models/reauth.server";
import {
  countRecoveryCodes,
  keepCodesToShow,
  RECOVERY_CODE_COUNT,
  regenerateRecoveryCodes,
  takeCodesToShow,
} from "~/models/recovery-codes.server";
import { PasswordConfirmFormSchema } from "~/schemas/forms";
import { requireUser } from "~/utils/auth.server";
import { replyRefused } from "~/utils/form-reply.server";
import { readForm } from "~/utils/http.server";
import { logEvent } from "~/utils/logger.server";

export const meta: MetaFunction = () => [{ title: "Recovery Codes · Management" }];

// New codes are kept (sealed) on the session by the post that made them and shown by the first
// read of this page, which removes them: like a flash message, they are shown once
// (decision 0401). Otherwise the page offers new codes, after the password as for factors.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!user.totpEnabled) throw redirect("/settings");
  const codes = await takeCodesToShow(request);
  return {
    codes,
    remaining: codes ? codes.length : await countRecoveryCodes(user.id),
    total: RECOVERY_CODE_COUNT,
    needsPassword: !(await isRecentlyAuthenticated(request)),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!user.totpEnabled) throw redirect("/settings");
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: PasswordConfirmFormSchema, disableAutoCoercion: true });
  const reauth = await confirmRecentAuth(request, user, form.get("password"));
  if (!reauth.ok) return replyRefused(submission, reauth, { field: "password", hideFields: ["password"] });
  const codes = await regenerateRecoveryCodes(user);
  logEvent("info", { event: "factor.recovery-codes.generated", userId: user.id });
  await keepCodesToShow(request, codes);
  throw redirect("/settings/two-factor/recovery-codes");
}

export default function RecoveryCodesDialog() {
  const { codes, remaining, total, needsPassword } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({ id: "recovery-codes", lastResult: actionData?.result });
  if (codes) {
    return (
      <Dialog
        title="Save Your Recovery Codes"
        description="Each code signs you in once instead of a code from your authenticator app, if you lose your phone. They are shown only now: print them or keep them somewhere safe."
        closeTo="/settings"
      >
        <div className="space-y-4">
          <ul
            aria-label="Recovery codes"
            className="grid grid-cols-2 gap-2 rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-sm dark:border-slate-700 dark:bg-slate-800"
          >
            {codes.map((code) => (
              <li key={code} className="select-all">
                {code}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap justify-end gap-2">
            <CopyButton text={codes.join("\n")} label="Copy recovery codes to clipboard" />
            <Link to="/settings" preventScrollReset className="btn-primary">
              I Have Saved Them
            </Link>
          </div>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog
      title="Recovery Codes"
      description={`You have ${remaining} of ${total} recovery codes left. New codes replace all of them.`}
      closeTo="/settings"
    >
      <Form method="post" {...getFormProps(form)} preventScrollReset className="space-y-4">
        <RecentPasswordField meta={fields.password} needed={needsPassword} required />
        <ConfirmFooter cancelTo="/settings" confirmLabel="Make New Codes" pendingLabel="Making codes..." />
      </Form>
    </Dialog>
  );
}
