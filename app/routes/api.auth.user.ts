import type { LoaderFunctionArgs } from "@remix-run/node";
import { toPublicUser } from "~/models/user.server";
import { requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { allowPasswordChange: true });
  return Response.json(toPublicUser(user));
}

export const action = () => methodNotAllowed();
