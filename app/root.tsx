import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
import {
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
import { AppFrame } from "~/components/app-frame";
import { ErrorView, isNetworkFailure } from "~/components/error-view";
import { PageHtml } from "~/components/page-html";
import { Toaster } from "~/components/toaster";
import { toPublicUser } from "~/models/user.server";
import { can } from "~/rules/capabilities.server";
import { getUser } from "~/utils/auth.server";
import { readPlainCookie, readTheme } from "~/utils/cookies.server";
import { useNonce } from "~/utils/nonce";
import { readToast, TOAST_SHOWN_HEADER } from "~/utils/toast.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Installable on a phone's home screen (opens on the dashboard).
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export const meta: MetaFunction = () => [{ title: "Management" }];

export type Theme = "light" | "dark";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const { toast, clear } = await readToast(request);
  const theme: Theme = readTheme(request);
  const sidebarOpen = readPlainCookie(request, "sidebar_state") !== "false";
  return data(
    {
      user: user ? toPublicUser(user) : null,
      canSwitchRole: !!user && can(user, "role.switch"),
      theme,
      sidebarOpen,
      toast,
    },
    { headers: clear ? { "Set-Cookie": clear, [TOAST_SHOWN_HEADER]: "1" } : undefined },
  );
}

/**
 * The root's and the app layout's `shouldRevalidate`. After a money dialog's post that got no
 * answer (app/utils/unanswered.ts) no loader runs: the dialog's would hand out a new key, and with
 * no network the reload would fail into the error page. After a refusal (4xx) none either, as
 * React Router decides for a route without this function; else they run, as single fetch runs
 * every matched loader (to a route with one it says `defaultShouldRevalidate: true`, so that is
 * not read). Here rather than in a module of its own: this is in every page's JavaScript, New
 * Delivery's budget included (decision 0100).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, actionStatus = 0 }) =>
  !actionResult?.unanswered && actionStatus < 400;

// Routes without a `headers` export pass on only their loaders' cookies; the mark of a shown
// toast goes on too, on pages and on their data calls (the service worker reads it).
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const shown = loaderHeaders.get(TOAST_SHOWN_HEADER);
  if (shown) headers.set(TOAST_SHOWN_HEADER, shown);
  return headers;
};

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const theme = rootData?.theme ?? "light";
  return (
    <PageHtml
      theme={theme}
      bodyClassName="min-h-screen"
      head={
        <>
          <Meta />
          <Links />
          {/* The first frame waits until the page's content is parsed (decision 0504): a frame
              of half a page moved a phone's bottom-sheet dialog by 300 px. */}
          <link rel="expect" href="#content-end" {...{ blocking: "render" }} />
        </>
      }
    >
      {children}
      <ScrollRestoration nonce={nonce} />
      <div id="content-end" hidden />
      <Scripts nonce={nonce} />
    </PageHtml>
  );
}

// The root's data as last rendered: the frame around No connection when a load fails (the
// signed-out pages render it too, so a person signed out never gets someone's frame).
let lastData: RootData | undefined;

export default function App() {
  const data = useLoaderData<typeof loader>();
  const { toast, theme } = (lastData = data);
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
  // A navigation with no signal fails every loader it runs, the root's too: the page keeps the
  // app's frame (the root's last data) around the No connection message.
  if (isNetworkFailure(error)) {
    return (
      <AppFrame last={lastData}>
        <ErrorView error={error} />
      </AppFrame>
    );
  }
  return (
    <main>
      <ErrorView error={error} />
    </main>
  );
}
