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
  }
}

export {};
