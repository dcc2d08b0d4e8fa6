import { prepareTemplate } from "./template";

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const template = await prepareTemplate();
  provide("dbTemplate", template);
}

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: { driver: "pglite" | "postgres"; location: string };
  }
}
