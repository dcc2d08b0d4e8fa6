import type { LoaderFunctionArgs } from "@remix-run/node";
import { getBusinessLogo } from "~/models/business.server";
import { requireUser } from "~/utils/auth.server";

// The company logo for printed invoices and the settings page. Its address carries the logo's
// version (?v=), so a browser keeps that one for good and a new logo gets a new address.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const logo = await getBusinessLogo();
  if (!logo) return new Response("No logo", { status: 404, headers: { "Cache-Control": "no-store" } });
  const etag = `"${logo.version}"`;
  const versioned = new URL(request.url).searchParams.get("v") === logo.version;
  const headers = {
    "Content-Type": logo.type,
    ETag: etag,
    "Cache-Control": versioned ? "private, max-age=31536000, immutable" : "private, no-cache",
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(logo.bytes), { headers });
}
