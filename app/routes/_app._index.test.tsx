import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "./_app._index";

/** The dashboard route as the router renders it when its loader throws `thrown`. */
async function renderFailure(thrown: unknown) {
  const routes = [
    {
      id: "dashboard",
      path: "/",
      loader: () => {
        throw thrown;
      },
      element: <p>dashboard</p>,
      ErrorBoundary,
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("the loader redirected");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe("the dashboard's error boundary", () => {
  it("says the dashboard failed to load, with Try Again (spec section 8)", async () => {
    const html = await renderFailure(new Error("connection refused"));
    expect(html).toContain("Failed to load dashboard data. Please check your connection and try again.");
    expect(html).toContain("Try Again");
    expect(html).toContain('role="alert"');
    expect(html).not.toContain("dashboard</p>");
  });

  it("keeps 403 as no permission, not a load failure", async () => {
    const html = await renderFailure(new Response("Forbidden", { status: 403 }));
    expect(html).toContain("403 Forbidden");
    expect(html).not.toContain("Failed to load dashboard data");
  });
});
