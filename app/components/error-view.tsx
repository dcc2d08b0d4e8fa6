import { isRouteErrorResponse } from "@remix-run/react";
import { useErrorId } from "~/utils/error-id";

/**
 * The one error view. Each status gets its own message: 404 "not found", 403 "no permission",
 * 400 the reason; only a real failure (a 5xx or an exception) shows the page's load-failure
 * text (spec section 8), or "Something went wrong", with Try Again.
 */
export function ErrorView({ error, failure }: { error: unknown; failure?: string }) {
  const errorId = useErrorId();
  if (isAbortError(error)) return <InterruptedView />;
  if (isNetworkFailure(error)) return <NoConnectionView failure={failure} />;
  if (isRouteErrorResponse(error) && error.status === 503) {
    return <UnavailableView data={error.data} />;
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ErrorPanel title="404 Page Not Found" status={404}>
        {shortMessage(error.data) ?? "The page you are looking for does not exist."}
      </ErrorPanel>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <ErrorPanel title="403 Forbidden" status={403}>
        You do not have permission to view this page.
      </ErrorPanel>
    );
  }
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500) {
    return (
      <ErrorPanel title={`${error.status} ${error.statusText || "Bad Request"}`} status={error.status}>
        {shortMessage(error.data) ?? "The request could not be understood."}
      </ErrorPanel>
    );
  }
  // On the server the error is logged by handleError; the browser keeps its own console.
  if (!isRouteErrorResponse(error) && typeof document !== "undefined") console.error(error);
  return (
    <div
      className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center"
      role="alert"
      data-status="failure"
    >
      <h1 className="text-2xl font-bold">{failure ?? "Something went wrong"}</h1>
      {failure ? null : (
        <p className="page-subtitle">
          {isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "An unexpected error occurred."}
        </p>
      )}
      {errorId ? (
        <p className="text-xs text-slate-500" data-error-id={errorId}>
          Error id: <code>{errorId}</code> (quote it when you report this)
        </p>
      ) : null}
      {/* A plain link reloads the page, with or without JavaScript. */}
      <a className="btn-primary" href="">
        Try Again
      </a>
    </div>
  );
}

/**
 * A page's data that could not be fetched: the browser's fetch failed (no signal, or a radio
 * that says "connected" and carries nothing), not an answer from the server.
 */
export function isNetworkFailure(error: unknown) {
  return (
    // (In the browser only: some Nodes have a `navigator` too, without `onLine`.)
    typeof document !== "undefined" &&
    !isRouteErrorResponse(error) &&
    (globalThis.navigator?.onLine === false ||
      (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)))
  );
}

/**
 * No connection, inside the app's frame (decision 1100), with the page's load-failure text (spec
 * section 8) when it has one: New Delivery opens from the phone's copy, and Try Again goes to
 * `retry` (this page when not given). Plain links, loaded as
 * documents, which the service worker answers offline.
 */
export function NoConnectionView({ retry = "", failure }: { retry?: string; failure?: string }) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center" data-status="offline">
      <h1 className="text-2xl font-bold">No connection</h1>
      <p className="page-subtitle">
        {failure ?? "This page needs the network, which the phone cannot reach now."} Deliveries can still be recorded:
        they wait on the phone and are sent when the signal returns.
      </p>
      <a className="btn-primary" href="/deliveries/new">
        New Delivery
      </a>
      <a className="btn-outline" href={retry}>
        Try Again
      </a>
    </div>
  );
}

function ErrorPanel({
  title,
  status,
  children,
  action = { href: "/", label: "Go to Dashboard" },
}: {
  title: string;
  status: number | string;
  children: React.ReactNode;
  /** A plain link, so it works with or without JavaScript (`href=""` reloads the page). */
  action?: { href: string; label: string };
}) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center" data-status={status}>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="page-subtitle">{children}</p>
      <a className="btn-primary" href={action.href}>
        {action.label}
      </a>
    </div>
  );
}

/** A thrown Response's body when it is a short plain message ("Delivery not found"). */
const GENERIC = new Set(["not found", "forbidden", "bad request"]);

function shortMessage(data: unknown): string | null {
  if (typeof data === "string") {
    const text = data.trim();
    return text && text.length <= 200 && !text.startsWith("<") && !GENERIC.has(text.toLowerCase()) ? text : null;
  }
  if (data && typeof data === "object" && "message" in data && typeof data.message === "string") return data.message;
  return null;
}

type Unavailable = {
  message?: string;
  action?: string;
  values?: Record<string, string>;
  omitted?: boolean;
};

// Fields that are the form's plumbing, not something the person typed.
const HIDDEN_FIELDS = new Set(["idempotencyKey", "returnTo", "intent", "_action"]);

/**
 * The database did not answer (503). When a form was being sent, what was typed is shown again
 * inside a plain form with the same fields and the same idempotency key: "Send again" is safe
 * to press, with or without JavaScript, and is never recorded twice.
 */
function UnavailableView({ data }: { data: unknown }) {
  const info: Unavailable = data && typeof data === "object" ? (data as Unavailable) : {};
  const values = info.values ?? {};
  const shown = Object.entries(values).filter(([name, value]) => !HIDDEN_FIELDS.has(name) && value !== "");
  const canResend = !!info.action && !info.omitted && Object.keys(values).length > 0;
  return (
    <div
      className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center"
      role="alert"
      data-status={503}
    >
      <h1 className="text-2xl font-bold">Temporarily unavailable</h1>
      <p className="page-subtitle">{info.message ?? "The service is busy. Please try again in a few seconds."}</p>
      {canResend ? (
        <form method="post" action={info.action} className="w-full max-w-md space-y-3 text-left">
          {Object.entries(values).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {shown.length ? (
            <dl className="card grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 p-4 text-sm" data-testid="kept-values">
              {shown.map(([name, value]) => (
                <div key={name} className="contents">
                  <dt className="font-medium">{labelFor(name)}</dt>
                  <dd className="break-words">{value}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          <p className="text-sm">Nothing you typed is lost. Sending it again will not record it twice.</p>
          <button type="submit" className="btn-primary w-full">
            Send again
          </button>
        </form>
      ) : (
        <>
          {info.omitted ? (
            <p className="text-sm">For your safety, passwords and codes are not kept: please type them again.</p>
          ) : null}
          {/* A plain link reloads the page, with or without JavaScript. */}
          <a className="btn-primary" href={info.action ?? ""}>
            Try Again
          </a>
        </>
      )}
    </div>
  );
}

/** "mobilizationPayment" -> "Mobilization payment". */
function labelFor(name: string) {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A request given up on rather than failed: the router abandons a page's data when another
 * navigation starts (and, racing with that, can hand the abandoned request's AbortError to a
 * boundary; react-router#14203), or the browser is leaving the page.
 */
export function isAbortError(error: unknown) {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/** Shown, usually for an instant, when a page's data was given up on: no failure is logged. */
function InterruptedView() {
  return (
    <ErrorPanel title="Loading was interrupted" status="interrupted" action={{ href: "", label: "Try Again" }}>
      Another page was asked for before this one arrived.
    </ErrorPanel>
  );
}
