import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { listSearch, listUrlOf } from "~/components/directory/list-url";
import { TruckForm } from "~/components/trucks/truck-form";
import { createTruck } from "~/models/truck.server";
import { requireCapability } from "~/rules/capabilities.server";
import { TRUCK_FORM_CONSTRAINT, TruckFormSchema } from "~/schemas/trucks";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { readForm } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "truck.manage");
  return { constraint: TRUCK_FORM_CONSTRAINT };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "truck.manage");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: TruckFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return replyInvalid(submission);
  const result = await createTruck(user, Object.fromEntries(formData));
  if (!result.ok) return replyRefused(submission, result, { formMessage: `Failed to add truck: ${result.message}` });
  return redirectWithToast(listUrlOf("/trucks", request.url), { title: `Truck ${result.truck.plate} added` });
}

export default function NewTruck() {
  return (
    <Dialog title="Add Truck" closeTo={`/trucks${listSearch(useLocation().search)}`} size="sm">
      <TruckForm
        lastResult={useActionData<typeof action>()?.result}
        constraint={useLoaderData<typeof loader>().constraint}
        submitLabel="Add Truck"
      />
    </Dialog>
  );
}
