import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { listSearch, listUrlOf } from "~/components/directory/list-url";
import { TruckForm } from "~/components/trucks/truck-form";
import { getTruck, truckView, updateTruck } from "~/models/truck.server";
import { requireCapability } from "~/rules/capabilities.server";
import { TRUCK_FORM_CONSTRAINT, TruckFormSchema } from "~/schemas/trucks";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm, requireIdParam } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "truck.manage");
  const truck = await getTruck(requireIdParam(params.id, "Truck not found"));
  invariantResponse(truck, "Truck not found");
  return { truck: truckView(truck), constraint: TRUCK_FORM_CONSTRAINT };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "truck.manage");
  const id = requireIdParam(params.id, "Truck not found");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: TruckFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return replyInvalid(submission);
  // The form posts every field: a blank box clears it.
  const result = await updateTruck(user, id, Object.fromEntries(formData));
  if (!result.ok) return replyRefused(submission, result, { formMessage: `Failed to update truck: ${result.message}` });
  return redirectWithToast(listUrlOf("/trucks", request.url), { title: `Truck ${result.truck.plate} updated` });
}

export default function EditTruck() {
  const { truck, constraint } = useLoaderData<typeof loader>();
  return (
    <Dialog title="Edit Truck" closeTo={`/trucks${listSearch(useLocation().search)}`} size="sm">
      <TruckForm
        lastResult={useActionData<typeof action>()?.result}
        constraint={constraint}
        defaultValue={truck}
        submitLabel="Save Changes"
      />
    </Dialog>
  );
}
