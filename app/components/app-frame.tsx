import { useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { loader as rootLoader, RootData } from "~/root";
import { AppShell } from "./app-shell";
import { OutboxBadge } from "./outbox-badge";
import { RoleSwitcher } from "./role-switcher";

/**
 * The signed-in pages' frame (nav, header, outbox badge). The app layout renders it, and so does
 * the root's error view when a page could not be loaded for want of a connection.
 */
export function AppFrame({ children, last }: { children: ReactNode; last?: RootData }) {
  // (The root's error view passes the root's last data: a failed load leaves it none.)
  const root = useRouteLoaderData<typeof rootLoader>("root") ?? last;
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
      <OfflineCopyNote />
      {children}
    </AppShell>
  );
}

/**
 * A page the service worker served from the phone's copy (public/sw.js marks it on <html
 * data-offline-copy>, the time it was kept) says so until the person moves on.
 */
function OfflineCopyNote() {
  const { key } = useLocation();
  const first = useRef(key);
  const [at, setAt] = useState(0);
  useEffect(() => {
    setAt(key === first.current ? Number(document.documentElement.dataset.offlineCopy) || 0 : 0);
  }, [key]);
  if (!at) return null;
  const day = new Date(at).toDateString() === new Date().toDateString();
  return (
    <p
      role="status"
      data-testid="offline-copy"
      className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      Offline — shown as last seen at{" "}
      {new Date(at).toLocaleString("en-GB", day ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" })}
    </p>
  );
}
