import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLocation, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { AppFrame } from "~/components/app-frame";
import { pendingPayoutCount } from "~/presenters/pending-payouts.server";
import { ErrorView } from "~/components/error-view";
import { useRootData } from "~/root";
import { requireUser } from "~/utils/auth.server";
import { pageSeen } from "~/utils/service-worker";

// Every page below this layout needs a signed-in, active user whose password is not pending.
// Admins also get the count of payouts awaiting approval for the navigation's badge: one count
// over a partial index (docs/decisions/1250); nobody else costs a query.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { pendingApprovals: await pendingPayoutCount(user) };
}

// A money dialog's post that got no answer reloads nothing (see the root's).
export { shouldRevalidate } from "~/root";

export default function AppLayout() {
  const { id = "", role = "" } = useRootData()?.user ?? {};
  const { pathname, search } = useLocation();
  // The service worker keeps a copy of each page seen, for when there is no signal (decision 1100).
  useEffect(() => {
    if (id) pageSeen(pathname + search, id, role);
  }, [pathname, search, id, role]);
  return (
    <AppFrame>
      <Outlet />
    </AppFrame>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <AppFrame>
      <ErrorView error={error} />
    </AppFrame>
  );
}
