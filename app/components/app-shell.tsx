import { Form, Link, useFetcher, useLocation, useNavigate, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import type { PublicUser } from "~/models/user.server";
import {
  isActive,
  mobileBarItemsFor,
  navItemsFor,
  navPath,
  SIDEBAR_COOKIE_MAX_AGE_SECONDS,
  type NavItem,
} from "~/utils/nav";
import {
  BuildingIcon,
  CalendarIcon,
  ChartIcon,
  FileIcon,
  HomeIcon,
  LogoutIcon,
  MenuIcon,
  MoonIcon,
  MoreIcon,
  PanelIcon,
  ShieldIcon,
  SettingsIcon,
  SunIcon,
  TruckIcon,
  UsersIcon,
  WalletIcon,
} from "./icons";

const ICONS: Record<NavItem["icon"], typeof HomeIcon> = {
  home: HomeIcon,
  truck: TruckIcon,
  calendar: CalendarIcon,
  file: FileIcon,
  wallet: WalletIcon,
  users: UsersIcon,
  building: BuildingIcon,
  settings: SettingsIcon,
  chart: ChartIcon,
  more: MoreIcon,
  shield: ShieldIcon,
};

function writeCookie(name: string, value: string, maxAgeSeconds: number) {
  document.cookie = `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax`;
}

function initials(name: string) {
  return (
    name
      .replace(/[^\p{L}\p{N}]/gu, "")
      .slice(0, 2)
      .toUpperCase() || "U"
  );
}

export function roleBadgeClass(role: string) {
  if (role === "admin") return "bg-purple-100 text-purple-800 dark:bg-purple-900/50 dark:text-purple-200";
  if (role === "manager") return "bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200";
  return "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200";
}

export function AppShell({
  user,
  sidebarOpen: initialOpen,
  theme,
  headerExtra,
  children,
}: {
  user: PublicUser;
  sidebarOpen: boolean;
  theme: "light" | "dark";
  headerExtra?: ReactNode;
  children: ReactNode;
}) {
  const location = useLocation();
  const [open, setOpen] = useState(initialOpen);
  const items = navItemsFor(user.role);
  const counts = useRouteLoaderData<{ pendingApprovals: number | null }>("routes/_app");

  useEffect(() => setOpen(initialOpen), [initialOpen]);

  const toggle = useCallback(() => {
    setOpen((value) => {
      writeCookie("sidebar_state", String(!value), SIDEBAR_COOKIE_MAX_AGE_SECONDS);
      return !value;
    });
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === "b" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        if (window.matchMedia("(max-width: 767px)").matches) {
          const sheet = document.getElementById("sidebar-sheet") as HTMLInputElement | null;
          if (sheet) sheet.checked = !sheet.checked;
        } else {
          toggle();
        }
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);

  // The one click handler behind the plain links of list rows (RowLink, decision 0505): a plain
  // left click on an <a data-discover> navigates in the app. Only RowLinks and <Link>s to paths
  // of this app carry data-discover (never an absolute URL, never `download`). A <Link>'s own
  // handler runs first (React listens on the document, registered earlier) and prevents the
  // default, so only plain anchors get this far. Kept small: New Delivery's JavaScript budget
  // had 194 bytes to spare.
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const a = (event.target as Element).closest?.("a[data-discover]");
      if (
        a instanceof HTMLAnchorElement &&
        !event.defaultPrevented &&
        !event.button &&
        !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
        !a.target
      ) {
        event.preventDefault();
        navigate(a.href.slice(a.origin.length), { preventScrollReset: a.hasAttribute("data-keep-scroll") });
      }
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);

  // Close the mobile sheet after navigating.
  useEffect(() => {
    const sheet = document.getElementById("sidebar-sheet") as HTMLInputElement | null;
    if (sheet) sheet.checked = false;
  }, [location.pathname]);

  const redirectTo = location.pathname + location.search;

  return (
    <div className="flex min-h-screen" data-sidebar-state={open ? "expanded" : "collapsed"}>
      {/* The mobile sheet opens through this checkbox, so it works without JavaScript. */}
      <input type="checkbox" id="sidebar-sheet" className="peer sr-only" aria-hidden="true" tabIndex={-1} />
      <label
        htmlFor="sidebar-sheet"
        className="fixed inset-0 z-40 hidden bg-black/50 peer-checked:block md:!hidden"
        aria-hidden="true"
      />
      <aside
        id="app-sidebar"
        aria-label="Sidebar"
        className={
          "fixed inset-y-0 left-0 z-50 flex w-sidebar-mobile print:hidden -translate-x-full flex-col border-r border-slate-200 bg-white transition-transform peer-checked:translate-x-0 dark:border-slate-800 dark:bg-slate-900 " +
          "md:sticky md:top-0 md:h-screen md:translate-x-0 md:transition-[width] " +
          (open ? "md:w-sidebar" : "md:w-sidebar-icon")
        }
      >
        <div className="flex h-14 items-center gap-2 border-b border-slate-200 px-3 dark:border-slate-800">
          <span className="grid h-8 w-8 shrink-0 place-items-center rounded-md bg-green-700 font-bold text-white">
            P
          </span>
          <span className={"truncate font-semibold " + (open ? "" : "md:hidden")}>Management</span>
        </div>
        {/* Collapsed, the nav must not clip: its tooltips stand outside it, to the right. */}
        <nav aria-label="Main" className={"flex-1 overflow-y-auto p-2 " + (open ? "" : "md:overflow-visible")}>
          <ul className="flex flex-col gap-1">
            {items.map((item) => {
              const Icon = ICONS[item.icon];
              const active = isActive(item.to, navPath(location));
              return (
                <li key={item.to} className="group relative">
                  <Link
                    to={item.to}
                    prefetch="intent"
                    aria-current={active ? "page" : undefined}
                    aria-label={open ? undefined : item.label}
                    className={
                      "flex items-center gap-3 rounded-md px-2 text-sm font-medium " +
                      (item.sub ? "h-8 " + (open ? "pl-6 " : "pl-6 md:pl-2 ") : "h-9 ") +
                      (active
                        ? "bg-green-50 text-green-800 dark:bg-green-900/40 dark:text-green-200"
                        : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800")
                    }
                  >
                    <Icon className="shrink-0" />
                    <span className={open ? "" : "md:hidden"}>{item.label}</span>
                    {item.badge && counts?.[item.badge] ? (
                      <span
                        className={
                          "ml-auto rounded-full bg-amber-500 px-1.5 text-xs font-semibold text-white " +
                          (open ? "" : "md:absolute md:right-0 md:top-0 md:ml-0")
                        }
                        data-testid="nav-badge"
                      >
                        {counts[item.badge]}
                        <span className="sr-only"> awaiting</span>
                      </span>
                    ) : null}
                  </Link>
                  {open ? null : (
                    <span
                      aria-hidden="true"
                      className="pointer-events-none absolute left-full top-1/2 z-50 ml-2 hidden -translate-y-1/2 whitespace-nowrap rounded bg-slate-900 px-2 py-1 text-xs text-white opacity-0 transition-opacity delay-0 group-focus-within:opacity-100 group-hover:opacity-100 group-hover:delay-700 md:block dark:bg-slate-700"
                    >
                      {item.label}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </nav>
        <UserMenu user={user} compact={!open} />
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 print:hidden items-center gap-2 border-b border-slate-200 bg-white/90 px-3 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
          <Form method="post" action="/resources/sidebar" className="hidden md:block">
            <input type="hidden" name="open" value={String(!open)} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button
              type="submit"
              className="btn-ghost px-2"
              aria-label="Toggle sidebar"
              aria-expanded={open}
              title="Toggle sidebar (Ctrl+B)"
              onClick={(event) => {
                event.preventDefault();
                toggle();
              }}
            >
              <PanelIcon />
            </button>
          </Form>
          <SheetToggle className="btn-ghost cursor-pointer px-2 md:hidden" label="Open menu">
            <MenuIcon />
          </SheetToggle>
          <div className="flex flex-1 items-center gap-2">{headerExtra}</div>
          <ThemeToggle theme={theme} redirectTo={redirectTo} />
        </header>
        <main className="flex-1 p-4 pb-24 md:p-6 md:pb-6 print:p-0">{children}</main>
      </div>

      <MobileBar user={user} pathname={navPath(location)} />
    </div>
  );
}

/**
 * Opens the phone side sheet. A label for the sheet's checkbox, so a tap works without
 * JavaScript; announced as a button, and Enter or Space work once JavaScript runs.
 */
function SheetToggle({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  return (
    <label
      htmlFor="sidebar-sheet"
      role="button"
      tabIndex={0}
      aria-label={label}
      aria-controls="app-sidebar"
      className={className}
      onKeyDown={(event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        const sheet = document.getElementById("sidebar-sheet") as HTMLInputElement | null;
        if (sheet) sheet.checked = !sheet.checked;
      }}
    >
      {children}
    </label>
  );
}

function ThemeToggle({ theme, redirectTo }: { theme: "light" | "dark"; redirectTo: string }) {
  const fetcher = useFetcher();
  const [current, setCurrent] = useState(theme);
  useEffect(() => setCurrent(theme), [theme]);
  return (
    <fetcher.Form
      method="post"
      action="/resources/theme"
      onSubmit={(event) => {
        // Apply at once and save in the background; without JavaScript the form posts and
        // the server redirects back.
        event.preventDefault();
        const value = current === "dark" ? "light" : "dark";
        fetcher.submit({ theme: value }, { method: "post", action: "/resources/theme" });
        document.documentElement.classList.toggle("dark", value === "dark");
        try {
          window.localStorage.setItem("theme", value);
        } catch {
          // ignore: the cookie carries the choice
        }
        setCurrent(value);
      }}
    >
      <input type="hidden" name="theme" value={current === "dark" ? "light" : "dark"} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        className="btn-ghost px-2"
        aria-label={`Switch to ${current === "dark" ? "light" : "dark"} theme`}
      >
        {current === "dark" ? <SunIcon /> : <MoonIcon />}
      </button>
    </fetcher.Form>
  );
}

function UserMenu({ user, compact }: { user: PublicUser; compact: boolean }) {
  // <details> opens and closes without JavaScript; Logout is a real form post.
  return (
    <details className="group relative border-t border-slate-200 p-2 dark:border-slate-800">
      {/* The name holds what the summary shows (the person and the role), so speech-input users
          can say what they see; the initials are drawn from an attribute and are not text. */}
      <summary
        className="flex cursor-pointer list-none items-center gap-2 rounded-md p-1 hover:bg-slate-100 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden"
        aria-label={`User menu: ${user.displayName}, ${user.role}`}
      >
        <span
          aria-hidden="true"
          data-initials={initials(user.displayName)}
          className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-green-700 text-xs font-semibold text-white before:content-[attr(data-initials)]"
        />
        <span className={"min-w-0 flex-1 " + (compact ? "md:hidden" : "")}>
          <span className="block truncate text-sm font-medium" title={user.displayName}>
            {user.displayName}
          </span>{" "}
          <span className={"badge mt-0.5 capitalize " + roleBadgeClass(user.role)} data-testid="role-badge">
            {user.role}
          </span>
        </span>
      </summary>
      <div className="absolute bottom-full left-2 z-50 mb-1 w-56 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <p className="truncate px-2 py-1.5 text-xs text-slate-500 dark:text-slate-400" title={user.email}>
          {user.email}
        </p>
        <Link
          to="/settings"
          className="flex items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <SettingsIcon width={16} height={16} /> Profile Settings
        </Link>
        <Link
          to="/settings"
          className="flex items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <SettingsIcon width={16} height={16} /> Security
        </Link>
        <Form method="post" action="/logout" reloadDocument>
          <button
            type="submit"
            className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            <LogoutIcon width={16} height={16} /> Logout
          </button>
        </Form>
      </div>
    </details>
  );
}

function MobileBar({ user, pathname }: { user: PublicUser; pathname: string }) {
  const items = mobileBarItemsFor(user.role);
  return (
    <nav
      aria-label="Mobile"
      className="fixed inset-x-0 bottom-0 z-30 flex h-16 print:hidden items-center justify-around border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900 md:hidden"
    >
      {items.map((item) => {
        if (item.kind === "menu") {
          return (
            <SheetToggle
              key="menu"
              className="-mt-6 grid h-12 w-12 cursor-pointer place-items-center rounded-full bg-green-700 text-white shadow-lg"
              label="Menu"
            >
              <MenuIcon />
            </SheetToggle>
          );
        }
        const Icon = ICONS[item.icon];
        const active = isActive(item.to, pathname);
        return (
          <Link
            key={item.label}
            to={item.to}
            aria-current={active ? "page" : undefined}
            className={
              "flex flex-col items-center gap-0.5 text-xs " +
              (active ? "text-green-700 dark:text-green-400" : "text-slate-600 dark:text-slate-300")
            }
          >
            <Icon />
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
