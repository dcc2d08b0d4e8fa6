// How large a request body the server accepts (decision 0705). Every body is read whole into
// memory by the fetch Request that Remix hands an action (`formData()`, `text()`), so without a
// cap one unauthenticated post of 300 MB to the sign-in call grew the server by 870 MB.
// The cap is checked on the declared length, before a byte of the body is read.
import onHeaders from "on-headers";

/** Forms and JSON: the largest the app takes (a bulk user action, a long remark) is a few KB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Business Details posts the logo as a file. Its parser keeps at most 200 KB of the file, reads
 * the rest to its end and drops it (app/utils/upload.server.ts), and the form says so: a phone
 * photo of a few MB must reach it rather than be cut off here with a bare 413.
 */
export const MAX_UPLOAD_BODY_BYTES = 16 * 1024 * 1024;

/**
 * New Delivery's JSON call carries a loading ticket's photo as base64 (the phone's outbox,
 * decision 1220): a photo of at most 2 MB is under 2.8 MB so written, and the fields a few KB.
 */
export const MAX_TICKET_JSON_BYTES = 3 * 1024 * 1024;

// New Delivery's form posts the loading ticket's photo as a file without JavaScript (decision
// 1220): as with the logo, its parser keeps at most 2 MB of it, and a larger photo straight from
// a phone's camera reaches the form, which says so and keeps what was typed.
// The bank statement's CSV (docs/decisions/1241) likewise: at most 2 MB kept, a larger file told so.
const UPLOAD_PATHS = new Set([
  "/settings/business",
  "/api/settings/business",
  "/deliveries/new",
  "/receipts/bank",
  "/api/bank-statements",
]);
const TICKET_JSON_PATHS = new Set(["/api/deliveries"]);

/**
 * A weighbridge ticket's photo sent inside JSON (docs/decisions/1220): at most 2 MB stored, so
 * about 2.8 MB as base64, with the ticket's fields around it.
 */
export const MAX_PHOTO_JSON_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Paths with an id in them: Record Ticket's form takes a photo file like the logo (a phone photo
 * over 2 MB must reach it, so that it says so), its JSON twin a photo as base64.
 */
const PATTERN_LIMITS = [
  [/^\/deliveries\/[^/]+\/tickets\/new$/, MAX_UPLOAD_BODY_BYTES],
  [/^\/api\/deliveries\/[^/]+\/tickets$/, MAX_PHOTO_JSON_BODY_BYTES],
];

/**
 * The largest body a request to this path may carry. Routes match whatever the case and with a
 * trailing slash (a form without JavaScript posts to the page's own address as typed), so the
 * lookup does too.
 */
export function bodyLimitFor(pathname) {
  const route = pathname
    .toLowerCase()
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  if (UPLOAD_PATHS.has(route)) return MAX_UPLOAD_BODY_BYTES;
  if (TICKET_JSON_PATHS.has(route)) return MAX_TICKET_JSON_BYTES;
  return PATTERN_LIMITS.find(([pattern]) => pattern.test(route))?.[1] ?? MAX_BODY_BYTES;
}

const megabytes = (bytes) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * What to answer before a request's body is read, or null to let it through:
 * - a declared length over the path's limit: 413;
 * - a body without a declared length (chunked): 411. Browsers always declare one (Chromium
 *   streams a request body only over HTTP/2), and so do the HTTP clients this API serves;
 *   counting a chunked body as it streams would mean reading it here, ahead of Remix.
 */
export function bodyRefusal({ method, pathname, contentLength, transferEncoding }) {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return null;
  const limit = bodyLimitFor(pathname);
  if (contentLength !== undefined) {
    const length = Number(contentLength);
    if (!Number.isSafeInteger(length) || length < 0) {
      return { status: 400, message: "The Content-Length header is not a number of bytes" };
    }
    return length > limit
      ? { status: 413, message: `The request body is too large: at most ${megabytes(limit)} is accepted here` }
      : null;
  }
  if (transferEncoding) {
    return { status: 411, message: "A request body must be sent with a Content-Length" };
  }
  return null;
}

/**
 * For the server's `checkContinue` event: a client that asks before sending its body
 * (`Expect: 100-continue`, as curl does over 1 MB) is told to go on only when the body is
 * within the limit; otherwise the middleware below answers 413 and the body is never sent.
 */
export function continueUnlessRefused(handler) {
  return (req, res) => {
    const refused = bodyRefusal({
      method: req.method,
      // The raw path, not `new URL(...)`: this runs outside Express, and a path such as "//"
      // would throw there and take the process down.
      pathname: (req.url ?? "/").split("?")[0],
      contentLength: req.headers["content-length"],
      transferEncoding: req.headers["transfer-encoding"],
    });
    if (!refused) res.writeContinue();
    handler(req, res);
  };
}

/**
 * The Express middleware. The connection is closed after a refusal: the body is never read.
 * It is closed too after any answer sent before its request's body was read to the end (a
 * text part over 200 KB in the logo form stops the read). Node discards an unread body only
 * when nothing began reading it; here Remix has, so the rest would sit on the keep-alive
 * connection, and the next request sent on it would wait until the connection timed out and
 * was reset (6 s, then an error in the client).
 */
export function bodyLimit() {
  return (req, res, next) => {
    const refusal = bodyRefusal({
      method: req.method,
      pathname: req.path,
      contentLength: req.headers["content-length"],
      transferEncoding: req.headers["transfer-encoding"],
    });
    if (!refusal) {
      onHeaders(res, () => {
        if (!req.complete) res.setHeader("Connection", "close");
      });
      return next();
    }
    res
      .status(refusal.status)
      .set("Connection", "close")
      .type("application/json")
      .send(JSON.stringify({ message: refusal.message }));
  };
}
