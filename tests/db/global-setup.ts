import { prepareTemplate } from "./template";

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const { dispose, ...template } = await prepareTemplate();
  provide("dbTemplate", template);
  return dispose;
}

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: { driver: "pglite" | "postgres"; location: string };
  }
}
