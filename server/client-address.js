// The client's address for throttling and logs. Behind a reverse proxy, set
// TRUSTED_PROXY_HEADER to the header that proxy sets (e.g. "X-Forwarded-For", "X-Real-IP",
// "CF-Connecting-IP"): the right-most entry is the one the proxy itself added. Without it the
// socket address is used and no header is believed, so a client cannot pick its own address.
export function clientAddress(req, header = process.env.TRUSTED_PROXY_HEADER) {
  if (header) {
    const value = req.get?.(header) ?? req.headers?.[header.toLowerCase()];
    if (typeof value === "string") {
      const last = value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean)
        .at(-1);
      if (last) return last.slice(0, 100);
    }
  }
  return req.socket?.remoteAddress ?? "unknown";
}
