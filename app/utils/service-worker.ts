// Registers the service worker (public/sw.js) that keeps New Delivery and the pages seen on the
// phone, and asks it to refresh New Delivery's copy whenever the phone is online. When the copy
// is ready the page says so on <html data-offline-ready> (the offline tests and the yard bench
// wait for it).

/** Tells the worker the person saw this page: it keeps a copy for when there is no signal. */
export function pageSeen(path: string, userId: string, role: string) {
  seen = { type: "seen", path, userId, role };
  if (navigator.onLine) navigator.serviceWorker?.controller?.postMessage(seen);
}
// The last page seen: told again when a new worker takes control of this page.
let seen: object | undefined;

export function registerServiceWorker() {
  // Not in development: its unbundled, changing /build files must not come from a cache.
  if (process.env.NODE_ENV !== "production") return;
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  const sw = navigator.serviceWorker;
  sw.addEventListener("message", (event) => {
    if (event.data?.type === "offline-ready") document.documentElement.dataset.offlineReady = "true";
  });
  const refresh = (force = false) => {
    if (navigator.onLine) sw.controller?.postMessage({ type: "refresh", force });
  };
  window.addEventListener("online", () => refresh(true));
  // Offline, a link loads its page as a document, which the worker answers from its copy (or
  // with No connection), rather than asking the server for its data as Remix's links do.
  window.addEventListener(
    "click",
    (event) => {
      if (navigator.onLine || !sw.controller || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (
        !(link instanceof HTMLAnchorElement) ||
        link.origin !== location.origin ||
        (link.target && link.target !== "_self") ||
        link.hasAttribute("download") ||
        (link.hash && link.pathname + link.search === location.pathname + location.search)
      )
        return;
      event.preventDefault();
      location.assign(link.href);
    },
    true,
  );
  // A new worker takes this page (the first visit): it heard nothing this page said before, so
  // it is told again. The worker may take the page before `ready` resolves, or after: both ways
  // end here, and the worker ignores a page told twice within a minute.
  const tellWorker = () => {
    refresh();
    if (seen && navigator.onLine) sw.controller?.postMessage(seen);
  };
  const register = () => {
    sw.addEventListener("controllerchange", tellWorker, { once: true });
    sw.register("/sw.js")
      .then(() => sw.ready)
      .then(() => {
        if (sw.controller) tellWorker();
      })
      .catch(() => {
        // no service worker (private mode, old browser): the form still works online
      });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
