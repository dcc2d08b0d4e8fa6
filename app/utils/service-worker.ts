// Registers the service worker (public/sw.js) that keeps New Delivery on the phone, and asks
// it to refresh its copy whenever the phone is online. When the copy is ready the page says
// so on <html data-offline-ready> (the offline tests and the yard bench wait for it).
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
  // Offline, a link to New Delivery loads the page from the worker's copy rather than asking
  // the server for its data (Remix's links call the server; the copy is a whole page).
  window.addEventListener(
    "click",
    (event) => {
      if (navigator.onLine || !sw.controller) return;
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (
        !(link instanceof HTMLAnchorElement) ||
        link.origin !== location.origin ||
        link.pathname !== "/deliveries/new"
      )
        return;
      event.preventDefault();
      location.assign(link.href);
    },
    true,
  );
  const register = () => {
    sw.register("/sw.js")
      .then(() => sw.ready)
      .then(() => {
        if (sw.controller) refresh();
        else sw.addEventListener("controllerchange", () => refresh(), { once: true });
      })
      .catch(() => {
        // no service worker (private mode, old browser): the form still works online
      });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
