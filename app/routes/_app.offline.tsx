import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useEffect, useState } from "react";
import { NoConnectionView } from "~/components/error-view";
import { requireUser } from "~/utils/auth.server";

// The page the service worker shows offline for a page the phone has no copy of (decision 1100).
// It keeps a copy of this one for the signed-in person; `?from=` names the page asked for.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function OfflinePage() {
  // The worker serves the copy kept without `?from=`: read after hydration, so the markup matches.
  const [retry, setRetry] = useState<string>();
  useEffect(() => {
    const from = new URLSearchParams(location.search).get("from") ?? "";
    // Only a path of this site (never `//host` or `/\host`, which a browser reads as another site).
    setRetry(/^\/(?![/\\])/.test(from) ? from : "/");
  }, []);
  return <NoConnectionView retry={retry} />;
}

export const meta: MetaFunction = () => [{ title: "No connection · Management" }];
