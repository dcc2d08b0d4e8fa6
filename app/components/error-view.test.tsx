import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorView, isAbortError, isNetworkFailure } from "./error-view";

// ErrorView logs to the browser's console only where there is a document.
function withDocument() {
  vi.stubGlobal("document", { querySelector: () => null });
}

describe("ErrorView", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("shows a request the router gave up on as interrupted, and logs no failure", () => {
    withDocument();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const html = renderToStaticMarkup(
      <ErrorView error={new DOMException("signal is aborted without reason", "AbortError")} failure="Failed to load" />,
    );
    expect(html).toContain("Loading was interrupted");
    expect(html).not.toContain("Failed to load");
    expect(html).not.toContain('role="alert"');
    expect(log).not.toHaveBeenCalled();
  });

  it("still shows and logs a real failure", () => {
    withDocument();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const html = renderToStaticMarkup(<ErrorView error={new TypeError("x is undefined")} failure="Failed to load" />);
    expect(html).toContain("Failed to load");
    expect(html).toContain('role="alert"');
    expect(log).toHaveBeenCalledTimes(1);
  });

  it("shows a fetch that failed in the browser as No connection, with a way to New Delivery", () => {
    withDocument();
    const html = renderToStaticMarkup(<ErrorView error={new TypeError("Failed to fetch")} failure="Failed to load" />);
    expect(html).toContain("No connection");
    expect(html).toContain("Failed to load");
    expect(html).toContain('href="/deliveries/new"');
    expect(html).not.toContain("Something went wrong");
  });

  it("tells a failed fetch from a bug and from the server's answers", () => {
    withDocument();
    vi.stubGlobal("navigator", { onLine: true });
    expect(isNetworkFailure(new TypeError("Failed to fetch"))).toBe(true);
    expect(isNetworkFailure(new TypeError("NetworkError when attempting to fetch resource."))).toBe(true);
    expect(isNetworkFailure(new TypeError("Load failed"))).toBe(true);
    expect(isNetworkFailure(new TypeError("x is undefined"))).toBe(false);
    vi.stubGlobal("navigator", { onLine: false });
    expect(isNetworkFailure(new Error("anything"))).toBe(true);
    vi.unstubAllGlobals();
    // Rendered on the server (no document), never: Node's `navigator` has no `onLine`.
    expect(isNetworkFailure(new TypeError("Failed to fetch"))).toBe(false);
  });

  it("knows an abort by its name, whatever made it", () => {
    expect(isAbortError(new DOMException("aborted", "AbortError"))).toBe(true);
    expect(isAbortError(Object.assign(new Error("aborted"), { name: "AbortError" }))).toBe(true);
    expect(isAbortError(new TypeError("Failed to fetch"))).toBe(false);
    expect(isAbortError(null)).toBe(false);
    expect(isAbortError("AbortError")).toBe(false);
  });
});
