import { createCookie } from "@remix-run/node";
import { parse, serialize } from "cookie";
import { env, sessionSecrets } from "./env.server";

export const SESSION_COOKIE_NAME = "__session";
// On an https origin the session cookie is a __Host- cookie: Secure, Path=/, no Domain, so no
// sub-domain or plain-http page can set or shadow it.
const HOST_SESSION_COOKIE_NAME = "__Host-session";
const PASSKEY_BINDING_MAX_AGE_SECONDS = 5 * 60;
// The default session lifetimes (decision 0003); SESSION_IDLE_MINUTES and
// SESSION_ABSOLUTE_MINUTES in the environment change them.
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
export const sessionIdleMs = () => env().SESSION_IDLE_MINUTES * 60 * 1000;
export const sessionAbsoluteMs = () => env().SESSION_ABSOLUTE_MINUTES * 60 * 1000;
export const THEME_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const TOAST_COOKIE_MAX_AGE_SECONDS = 60;

function lazy<T>(make: () => T) {
  let value: T | undefined;
  return () => (value ??= make());
}

const httpsOrigin = () => !!env().APP_ORIGIN?.startsWith("https://");
export const secure = () =>
  httpsOrigin() || (env().NODE_ENV === "production" && !env().APP_ORIGIN?.startsWith("http://"));

export const sessionCookie = lazy(() =>
  createCookie(httpsOrigin() ? HOST_SESSION_COOKIE_NAME : SESSION_COOKIE_NAME, {
    httpOnly: true,
    sameSite: "lax",
    secure: secure(),
    path: "/",
    secrets: sessionSecrets(),
    maxAge: sessionAbsoluteMs() / 1000,
  }),
);

// Flash messages: signed, short-lived, read and cleared by the root loader.
export const toastCookie = lazy(() =>
  createCookie("__toast", {
    httpOnly: true,
    sameSite: "lax",
    secure: secure(),
    path: "/",
    secrets: sessionSecrets(),
    maxAge: TOAST_COOKIE_MAX_AGE_SECONDS,
  }),
);

// A share link just made (docs/decisions/1260): its address, shown once by the page the create
// redirects to, which clears it. A redirect, not an answer to the post, so reloading that page
// shows the list again instead of posting the form a second time and making a second link.
export const newShareLinkCookie = lazy(() =>
  createCookie("__new_share_link", {
    httpOnly: true,
    sameSite: "lax",
    secure: secure(),
    // "/", not "/share-links": with JavaScript the page's data is read from "/share-links.data",
    // which a cookie of path "/share-links" does not reach.
    path: "/",
    secrets: sessionSecrets(),
    maxAge: 5 * 60,
  }),
);

// Binds a passkey sign-in challenge to the browser that asked for it (a random value whose
// hash is stored with the challenge).
export const passkeyBindingCookie = lazy(() =>
  createCookie(httpsOrigin() ? "__Host-passkey" : "__passkey", {
    httpOnly: true,
    sameSite: "strict",
    secure: secure(),
    path: "/",
    secrets: sessionSecrets(),
    maxAge: PASSKEY_BINDING_MAX_AGE_SECONDS,
  }),
);

// Plain cookies the browser script also writes (theme, sidebar_state): not secret, not signed.
// Parsed by the `cookie` package Remix itself uses; a value the browser script never writes (a
// broken %-escape) reads as absent, not as its raw text or a 500.
const BROKEN = "\u0000broken";
const decodeOrBroken = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return BROKEN;
  }
};

export function readPlainCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("Cookie");
  if (!header) return undefined;
  const value = parse(header, { decode: decodeOrBroken })[name];
  return value === BROKEN ? undefined : value;
}

/** The colour theme the browser chose (the `theme` cookie): dark only when it says so. */
export function readTheme(request: Request): "light" | "dark" {
  return readPlainCookie(request, "theme") === "dark" ? "dark" : "light";
}

export function plainCookie(name: string, value: string, maxAgeSeconds: number) {
  return serialize(name, value, { path: "/", maxAge: maxAgeSeconds, sameSite: "lax" });
}
