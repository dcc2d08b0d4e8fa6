// A delivery with its loading ticket and a photo recorded with no signal (decisions 1100 and
// 1220): the photo is made smaller on the phone by code the service worker kept with the page,
// waits in the outbox as text with the other fields, and is sent once when the signal returns;
// the delivery lands once with the ticket's net as its tons, and the photo is stored.
import { expect, type Page } from "@playwright/test";
import { unique } from "./fixtures";
import { offlineTest } from "./offline-fixtures";
import { FIXTURE_USERS } from "./users";
import { ok } from "./walk";
import { cameraPhoto, recordedTicket } from "./yard-ticket-helpers";

const test = offlineTest();

async function openOnline(page: Page) {
  await page.goto("/deliveries/new");
  await expect(page.getByRole("dialog", { name: "New Delivery Entry" })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.locator("html[data-offline-ready]").waitFor({ state: "attached" });
}

/** The size of the photo waiting in the phone's outbox, and how it is written. */
function waitingPhoto(page: Page) {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("pks-outbox");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const entries = await new Promise<{ fields: Record<string, string> }[]>((resolve, reject) => {
      const request = db.transaction("deliveries").objectStore("deliveries").getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const url = entries[0].fields["loadingTicket.photo"];
    const bytes = Uint8Array.from(atob(url.split(",")[1]), (c) => c.charCodeAt(0));
    const image = await createImageBitmap(new Blob([bytes]));
    return { prefix: url.slice(0, 23), width: image.width, height: image.height, bytes: bytes.length };
  });
}

test("a delivery with its loading ticket and photo recorded offline lands once, with the photo", async ({
  page,
  context,
  loginAs,
  baseURL,
}) => {
  await loginAs("staff3");
  await openOnline(page);
  const photo = await cameraPhoto(page, 4000, 3000);
  const location = `Offline ticket ${unique()}`;
  const ticketNo = `OT-${unique().slice(-6).toUpperCase()}`;
  await context.setOffline(true);
  const dialog = page.getByRole("dialog", { name: "New Delivery Entry" });
  await dialog.getByLabel("Agent *").selectOption({ label: "Musa Ibrahim" });
  await dialog.getByLabel("Location *").fill(location);
  await dialog.getByLabel("Truck No.").fill(`OF ${unique().slice(-6).toUpperCase()}`);
  await dialog.getByText("Loading ticket", { exact: true }).click();
  await dialog.getByLabel("Ticket No.").fill(ticketNo);
  await dialog.getByLabel("Gross (kg)").fill("45550");
  await dialog.getByLabel("Tare (kg)").fill("15000");
  await expect(dialog.getByRole("status").filter({ hasText: "Net" })).toHaveText("Net 30,550 kg");
  await dialog.getByLabel("Photo").setInputFiles({ name: "ticket.jpg", mimeType: "image/jpeg", buffer: photo });
  await dialog.getByRole("button", { name: "Record Delivery" }).click();
  await expect(page.getByTestId("outbox-status")).toHaveText("Saved on this phone, waiting to send");
  await expect(page.getByTestId("outbox-entry")).toContainText(`ticket ${ticketNo}`);
  const badge = page.getByTestId("outbox-badge");
  await expect(badge).toHaveAttribute("data-count", "1");
  // Made smaller on the phone: 1600 px on the long side, a JPEG well under the server's 2 MB.
  const waiting = await waitingPhoto(page);
  expect(waiting).toMatchObject({ prefix: "data:image/jpeg;base64,", width: 1600, height: 1200 });
  expect(waiting.bytes).toBeLessThan(photo.length);
  // The form is ready for the next delivery: the photo box is empty again.
  await expect(dialog.getByLabel("Photo")).toHaveValue("");

  await context.setOffline(false);
  await expect(badge).toHaveCount(0, { timeout: 30_000 });
  const mine = await ok<{ id: number; location: string; tons: string }[]>(await page.request.get("/api/deliveries"));
  const recorded = mine.filter((d) => d.location === location);
  expect(recorded).toHaveLength(1);
  expect(Number(recorded[0].tons)).toBe(30.55);
  const events = await recordedTicket(baseURL!, FIXTURE_USERS.admin.email, recorded[0].id);
  expect(events).toHaveLength(1);
  expect(events[0].after).toMatchObject({ ticketNo, netKg: 30550, photoId: expect.any(Number) });
});
