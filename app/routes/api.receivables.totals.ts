import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { receivablesTotals } from "~/presenters/receivables.server";
import { requireCapability } from "~/rules/capabilities.server";
import { requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";

// GET: what every client owes together today, aged, and how many clients have a balance
// (docs/decisions/0995): the Receivables page's total.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  return Response.json(await receivablesTotals(user));
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}
