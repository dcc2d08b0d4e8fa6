import { redirect } from "@remix-run/node";
import { toastCookie } from "./cookies.server";

export type Toast = { title: string; description?: string; variant?: "default" | "destructive" };

/** Spec section 8: shown after an e-mail, code or passkey sign-in. */
export const SIGNED_IN_TOAST: Toast = { title: "Success", description: "You have been logged in successfully" };

export async function toastHeader(toast: Toast) {
  return toastCookie().serialize(toast);
}

/** Redirects with a flash toast that the next page shows once, with or without JavaScript. */
export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/**
 * Sent by the service worker when it fetches New Delivery for the phone's copy (public/sw.js).
 * That fetch runs in the background and carries the browser's cookies, so it could land between
 * a form's redirect and the page that follows it and spend the message meant for that page.
 */
export const OFFLINE_COPY_HEADER = "X-Offline-Copy";

/**
 * Set on a response that shows a flash toast. The service worker does not keep such a page as
 * the phone's copy of New Delivery, or the message would show again each time the copy opened
 * offline; it fetches a copy without it instead (public/sw.js).
 */
export const TOAST_SHOWN_HEADER = "X-Toast-Shown";

/**
 * Reads the flash toast and the header that clears it. The service worker's copy of a page
 * neither shows nor spends it: the person sees it on the page they are going to.
 */
export async function readToast(request: Request): Promise<{ toast: Toast | null; clear: string | null }> {
  if (request.headers.has(OFFLINE_COPY_HEADER)) return { toast: null, clear: null };
  const value = await toastCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object" || typeof value.title !== "string") return { toast: null, clear: null };
  return { toast: value as Toast, clear: await toastCookie().serialize("", { maxAge: 0 }) };
}
