import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BusinessDetailsForm } from "~/components/settings/business-form";
import { loadBusinessDetails, updateBusinessDetails, type LogoChange } from "~/models/business.server";
import { requireCapability } from "~/rules/capabilities.server";
import { BUSINESS_FORM_CONSTRAINT, BusinessDetailsFormSchema } from "~/schemas/business";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { LOGO_MAX_BYTES, LOGO_TOO_LARGE } from "~/utils/logo.server";
import { fileBytes, readUploadForm } from "~/utils/upload.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Business Details · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "settings.manage");
  return { details: await loadBusinessDetails(user), constraint: BUSINESS_FORM_CONSTRAINT };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "settings.manage");
  const upload = await readUploadForm(request, LOGO_MAX_BYTES);
  if (!upload.ok) {
    // A part over the limit: nothing was saved, and the form says why. A logo that was too
    // large leaves the other fields read, so the form shows again what was typed.
    const message = upload.field === "logo" ? LOGO_TOO_LARGE : "A field is far too long";
    if (upload.formData) {
      const submission = parseWithZod(upload.formData, {
        schema: BusinessDetailsFormSchema,
        disableAutoCoercion: true,
      });
      return replyRefused(
        submission,
        { status: 400, message },
        { field: upload.field ?? undefined, hideFields: ["logo"] },
      );
    }
    const result = { status: "error" as const, error: { [upload.field ?? ""]: [message] } };
    return data({ result }, { status: 400 });
  }
  const { formData } = upload;
  const submission = parseWithZod(formData, { schema: BusinessDetailsFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return replyInvalid(submission, { hideFields: ["logo"] });
  const bytes = await fileBytes(formData.get("logo"));
  const logo: LogoChange = bytes
    ? { kind: "replace", bytes }
    : formData.get("removeLogo") === "on"
      ? { kind: "remove" }
      : { kind: "keep" };
  const result = await updateBusinessDetails(user, Object.fromEntries(formData), logo);
  if (!result.ok) return replyRefused(submission, result, { hideFields: ["logo"] });
  return redirectWithToast("/settings/business", { title: "Business details saved" });
}

export default function BusinessDetailsPage() {
  const { details, constraint } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header>
        <h1 className="page-title">Business Details</h1>
        <p className="page-subtitle">The company, payment instructions and logo printed on invoices</p>
      </header>
      <BusinessDetailsForm details={details} constraint={constraint} lastResult={answer?.result} />
    </div>
  );
}
