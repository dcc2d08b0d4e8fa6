import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";

// Any path no route claims: the shell's 404 page with HTTP 404.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}
