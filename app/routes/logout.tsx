import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { signOut } from "~/models/sign-in.server";

// Logging out always ends at the root, even when there was no session to end (spec section 4).
export async function action({ request }: ActionFunctionArgs) {
  return redirect("/", { headers: { "Set-Cookie": await signOut(request) } });
}

export async function loader() {
  return redirect("/");
}
