// Security plumbing shared by server.js and its tests. Plain JavaScript: it runs before the
// Remix build is loaded.
import { randomBytes } from "node:crypto";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function makeNonce() {
  return randomBytes(16).toString("base64");
}

/**
 * Cross-site writes are refused. A browser always says where a write comes from (Origin, or
 * at least Sec-Fetch-Site); a request with neither is not from a browser, so no cookie of a
 * victim can ride on it.
 */
export function isAllowedWrite({ method, origin, secFetchSite, expectedOrigin }) {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  if (origin) return origin === expectedOrigin;
  if (secFetchSite) return secFetchSite === "same-origin" || secFetchSite === "none";
  return true;
}

export function contentSecurityPolicy(nonce, { development = false } = {}) {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    // A reminder's WhatsApp button is a form: recorded here, then sent on to the prefilled chat at
    // wa.me (which goes on to api.whatsapp.com); a form's redirects are held to this list too
    // (docs/decisions/1260).
    "form-action 'self' https://wa.me https://api.whatsapp.com",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Headers for every response. Cache-Control: no-store is the default (pages and JSON carry
 * someone's data); fingerprinted and public static files set their own caching after this.
 * Strict-Transport-Security whenever the app's origin is https.
 */
export function securityHeaders(nonce, options = {}) {
  const origin = options.appOrigin ?? process.env.APP_ORIGIN ?? "";
  return {
    "Cache-Control": "no-store",
    ...(origin.startsWith("https://") ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
    "Content-Security-Policy": contentSecurityPolicy(nonce, options),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
  };
}

/** The methods the app answers; the fetch Request Remix builds cannot even hold TRACE, TRACK or CONNECT. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const ALLOWED = new Set(ALLOWED_METHODS);

/**
 * Any other method (TRACE, TRACK, CONNECT, PROPFIND...) answers 405 with `Allow`, before
 * anything reads the request (decision 0004). TRACE would echo the request, cookies included.
 */
export function refuseUnknownMethods() {
  return (req, res, next) => {
    if (ALLOWED.has(req.method)) return next();
    res
      .status(405)
      .set("Allow", ALLOWED_METHODS.join(", "))
      .set("Connection", "close")
      .type("application/json")
      .send(JSON.stringify({ message: "Method not allowed" }));
  };
}
