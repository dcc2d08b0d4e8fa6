import { useEffect, useRef, useState } from "react";
import { XIcon } from "./icons";

type ToastData = { title: string; description?: string; variant?: "default" | "destructive" };

const TOAST_DURATION_MS = 5000;
const TOAST_EVENT = "pks:toast";

export function showToast(toast: ToastData) {
  window.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: toast }));
}
const SWIPE_THRESHOLD_PX = 50;

/**
 * One toast at a time (spec section 9). The toast arrives as flash data from the server, so
 * it shows after a no-JavaScript redirect too, and its close button works there too (the
 * summary of an open <details>); with JavaScript it also leaves after 5 s or on a swipe right, and F8 focuses the
 * region.
 */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const [current, setCurrent] = useState(toast);
  const regionRef = useRef<HTMLElement>(null);
  const startX = useRef<number | null>(null);

  // A new toast from the server replaces the one shown; a later load without one (a second
  // navigation or revalidation right after, which finds the flash already read) leaves it: it
  // goes after its 5 s, on a swipe or on its close button.
  useEffect(() => {
    if (toast) setCurrent(toast);
  }, [toast]);

  // A toast raised in the browser (New Delivery sent from the phone's outbox).
  useEffect(() => {
    const onToast = (event: Event) => setCurrent((event as CustomEvent<ToastData>).detail);
    window.addEventListener(TOAST_EVENT, onToast);
    return () => window.removeEventListener(TOAST_EVENT, onToast);
  }, []);

  useEffect(() => {
    if (!current) return;
    const timer = window.setTimeout(() => setCurrent(null), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [current]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") regionRef.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    // A labelled region (F8 focuses it) holding at most one status message.
    <section
      ref={regionRef}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className="pointer-events-none fixed bottom-20 right-0 z-[100] flex w-full print:hidden flex-col gap-2 p-4 outline-none sm:bottom-4 sm:max-w-sm"
    >
      {current ? (
        // An open <details> whose summary is the close button: without JavaScript the browser
        // closes it and the closed toast is hidden; with JavaScript the click lets the toast go.
        <details
          open
          className="pointer-events-auto relative [&:not([open])]:hidden"
          onPointerDown={(e) => (startX.current = e.clientX)}
          onPointerUp={(e) => {
            if (startX.current !== null && e.clientX - startX.current > SWIPE_THRESHOLD_PX) setCurrent(null);
            startX.current = null;
          }}
        >
          <summary
            role="button"
            aria-label="Close notification"
            className={
              "absolute right-3 top-3 cursor-pointer list-none rounded p-1 opacity-70 hover:opacity-100 " +
              "[&::-webkit-details-marker]:hidden " +
              (current.variant === "destructive" ? "text-white" : "")
            }
            onClick={(e) => {
              e.preventDefault();
              setCurrent(null);
            }}
          >
            <XIcon width={16} height={16} />
          </summary>
          <div
            role="status"
            aria-live="polite"
            data-variant={current.variant ?? "default"}
            className={
              "rounded-md border p-4 pr-10 shadow-lg " +
              (current.variant === "destructive"
                ? "border-red-700 bg-red-600 text-white"
                : "border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100")
            }
          >
            <p className="text-sm font-semibold">{current.title}</p>
            {current.description ? <p className="mt-1 text-sm opacity-90">{current.description}</p> : null}
          </div>
        </details>
      ) : null}
    </section>
  );
}
