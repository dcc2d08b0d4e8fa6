import "@remix-run/node";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    cspNonce?: string;
    // Set by server/context.js.
    clientAddress?: string;
    requestId?: string;
    /** The app's router asked for page data (a `.data` URL), not a browser or a script for the page. */
    pageDataRequest?: boolean;
  }
}

export {};
