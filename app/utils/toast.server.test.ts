import { describe, expect, it } from "vitest";
import { OFFLINE_COPY_HEADER, readToast, toastHeader } from "./toast.server";

async function requestWithToast(headers: Record<string, string> = {}) {
  const cookie = (await toastHeader({ title: "January 1990 closed" })).split(";")[0];
  return new Request("http://localhost/deliveries/new", { headers: { Cookie: cookie, ...headers } });
}

describe("readToast", () => {
  it("shows the waiting message once and clears it", async () => {
    const { toast, clear } = await readToast(await requestWithToast());
    expect(toast?.title).toBe("January 1990 closed");
    expect(clear).toMatch(/Max-Age=0/i);
  });

  it("leaves the message for the next page when the service worker fetches its copy", async () => {
    const { toast, clear } = await readToast(await requestWithToast({ [OFFLINE_COPY_HEADER]: "1" }));
    expect(toast).toBeNull();
    expect(clear).toBeNull();
  });

  it("is the header the service worker sends", async () => {
    const { readFileSync } = await import("node:fs");
    expect(readFileSync("public/sw.js", "utf8")).toContain(`"${OFFLINE_COPY_HEADER}": "1"`);
  });
});
