import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPasskeys } from "~/models/passkey.server";
import { requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await listPasskeys(user.id));
}

export const action = () => methodNotAllowed();
