import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { role: user.role };
}

export default function Dashboard() {
  const { role } = useLoaderData<typeof loader>();
  if (role === "staff") {
    return (
      <div>
        <h1 className="page-title">Staff Dashboard</h1>
        <p className="page-subtitle">Record and track your deliveries</p>
      </div>
    );
  }
  return (
    <div>
      <h1 className="page-title">Manager Dashboard</h1>
      <p className="page-subtitle">Overview of operations and finances</p>
    </div>
  );
}
