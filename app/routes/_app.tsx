import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useRouteError } from "@remix-run/react";
import { AppShell } from "~/components/app-shell";
import { OutboxBadge } from "~/components/outbox-badge";
import { RoleSwitcher } from "~/components/role-switcher";
import { ErrorView } from "~/components/error-view";
import { useRootData } from "~/root";
import { requireUser } from "~/utils/auth.server";

// Every page below this layout needs a signed-in, active user whose password is not pending.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

// A money dialog's post that got no answer reloads nothing (see the root's).
export { shouldRevalidate } from "~/root";

export default function AppLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  if (!root?.user) return <>{children}</>;
  return (
    <AppShell
      user={root.user}
      sidebarOpen={root.sidebarOpen}
      theme={root.theme}
      headerExtra={
        <>
          {root.canSwitchRole ? <RoleSwitcher role={root.user.role} /> : null}
          <OutboxBadge userId={root.user.id} />
        </>
      }
    >
      {children}
    </AppShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <Shell>
      <ErrorView error={error} />
    </Shell>
  );
}
