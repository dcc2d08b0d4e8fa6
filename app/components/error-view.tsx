import { isRouteErrorResponse } from "@remix-run/react";

/**
 * The one error view. Each status gets its own message: 404 "not found", 403 "no permission",
 * 400 the reason; only a real failure (a 5xx or an exception) shows the page's load-failure
 * text (spec section 8), or "Something went wrong", with Try Again.
 */
export function ErrorView({ error, failure }: { error: unknown; failure?: string }) {
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
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center" role="alert" data-status="failure">
      <h1 className="text-2xl font-bold">{failure ?? "Something went wrong"}</h1>
      {failure ? null : (
        <p className="page-subtitle">{isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "An unexpected error occurred."}</p>
      )}
      {/* A plain link reloads the page, with or without JavaScript. */}
      <a className="btn-primary" href="">
        Try Again
      </a>
    </div>
  );
}

function ErrorPanel({ title, status, children }: { title: string; status: number; children: React.ReactNode }) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-6 text-center" data-status={status}>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="page-subtitle">{children}</p>
      <a className="btn-primary" href="/">
        Go to Dashboard
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
