// The one door from app code to db/: files under app/ ending in .server are kept out of
// browser bundles, top-level db/ is not (STACK.md).
export * from "../db/client.server";
export * as schema from "../db/schema";
export type * from "../db/schema";
