// What the yard ticket journeys share (docs/decisions/1220): a photo to attach, and the ticket a
// delivery's audit trail recorded.
import type { Page } from "@playwright/test";
import { E2E_PASSWORD } from "./users";
import { api, ok } from "./walk";

/** Bytes that read as a JPEG (the server reads a photo's first bytes), for a browser without JavaScript. */
export const JPEG_BYTES = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(20_000, 9)]);

/** A real JPEG of `width` × `height`, drawn by the browser (with JavaScript only). */
export async function cameraPhoto(page: Page, width = 2400, height = 1800): Promise<Buffer> {
  const url = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement("canvas");
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext("2d")!;
      for (let i = 0; i < 60; i++) {
        context.fillStyle = `hsl(${i * 6} 70% 50%)`;
        context.fillRect((i * w) / 60, 0, w / 60, h);
      }
      context.fillStyle = "#000";
      context.font = "120px sans-serif";
      context.fillText("TICKET 0042  NET 20,480 kg", 80, h / 2);
      return canvas.toDataURL("image/jpeg", 0.95);
    },
    [width, height],
  );
  return Buffer.from(url.split(",")[1], "base64");
}

/** The delivery's ticket as the audit trail recorded it (an admin reads it through the API). */
export async function recordedTicket(baseURL: string, email: string, deliveryId: number) {
  const admin = await api(baseURL, email, E2E_PASSWORD);
  const events = await ok<{ after: { ticketNo: string; netKg: number; photoId: number | null } }[]>(
    await admin.get(`/api/audit?entity=delivery&entityId=${deliveryId}&action=delivery.ticket_record&limit=5`),
  );
  await admin.dispose();
  return events;
}
