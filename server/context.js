// The load context of every Remix request: the CSP nonce, the client address (for the
// throttle and logs), a request id, also sent as X-Request-Id, under which an unexpected
// error is logged and shown, and whether the app's router asked for page data (a `.data` URL;
// the loader sees the URL without it).
import { randomUUID } from "node:crypto";
import { clientAddress } from "./client-address.js";

export function loadContext(req, res) {
  const requestId = randomUUID();
  res.set("X-Request-Id", requestId);
  return {
    cspNonce: res.locals.cspNonce,
    clientAddress: clientAddress(req),
    requestId,
    pageDataRequest: req.path.endsWith(".data"),
  };
}
