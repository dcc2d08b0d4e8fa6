import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { Toaster } from "~/components/toaster";
import { toPublicUser } from "~/models/user.server";
import { getUser } from "~/utils/auth.server";
import { readPlainCookie } from "~/utils/cookies.server";
import { env } from "~/utils/env.server";
import { useNonce } from "~/utils/nonce";
import { readToast } from "~/utils/toast.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Management" }];

export type Theme = "light" | "dark";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const { toast, clear } = await readToast(request);
  const theme: Theme = readPlainCookie(request, "theme") === "dark" ? "dark" : "light";
  const sidebarOpen = readPlainCookie(request, "sidebar_state") !== "false";
  const ownerEmail = env().OWNER_EMAIL?.trim().toLowerCase();
  return data(
    {
      user: user ? toPublicUser(user) : null,
      canSwitchRole: !!user && (user.role === "admin" || (!!ownerEmail && user.email === ownerEmail)),
      theme,
      sidebarOpen,
      toast,
    },
    { headers: clear ? { "Set-Cookie": clear } : undefined },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const theme = rootData?.theme ?? "light";
  return (
    <html lang="en" className={theme === "dark" ? "dark" : ""}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast, theme } = useLoaderData<typeof loader>();
  useEffect(() => {
    // Lets tests (and scripts) tell when the page has become interactive.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useEffect(() => {
    // The server renders from the cookie; localStorage mirrors it (spec section 4).
    try {
      window.localStorage.setItem("theme", theme);
    } catch {
      // storage can be unavailable (private mode); the cookie is what counts
    }
  }, [theme]);
  return (
    <>
      <Outlet />
      <Toaster toast={toast} />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <ErrorView error={error} />;
}

export function ErrorView({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center">
        <h1 className="text-4xl font-bold">404 Page Not Found</h1>
        <p className="page-subtitle">The page you are looking for does not exist.</p>
        <a className="btn-primary" href="/">
          Go to Dashboard
        </a>
      </main>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <main className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center">
        <h1 className="text-3xl font-bold">403 Forbidden</h1>
        <p className="page-subtitle">You do not have permission to view this page.</p>
        <a className="btn-primary" href="/">
          Go to Dashboard
        </a>
      </main>
    );
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center" role="alert">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="page-subtitle">
        {isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "An unexpected error occurred."}
      </p>
      <TryAgain />
    </main>
  );
}

function TryAgain() {
  // A plain link reloads the page without JavaScript; with it, a full reload clears bad state.
  return (
    <a className="btn-primary" href="">
      Try Again
    </a>
  );
}
