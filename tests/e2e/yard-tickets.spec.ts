import { expect, hydrated, test, unique } from "./fixtures";
import { AXE_SOURCE, ok, seriousAxeViolations, sidewaysScroll, WIDTHS, type Width } from "./walk";
import { cameraPhoto, JPEG_BYTES, recordedTicket } from "./yard-ticket-helpers";

// The loading ticket captured at the yard on New Delivery (docs/decisions/1220), with JavaScript
// on and off, at desktop and phone widths: the ticket's boxes, its photo, the net as typed (with
// JavaScript), a refusal under the box it is about, and the delivery recorded with the ticket's
// net as its tons. The phone's offline journey with a photo is in yard-tickets-offline.spec.ts.

for (const width of ["desktop", "phone"] as Width[]) {
  test(`staff record a delivery with its loading ticket and photo; the ticket's net is its tons (${width})`, async ({
    page,
    loginAs,
    javaScript,
    baseURL,
    users,
  }) => {
    await page.setViewportSize(WIDTHS[width]);
    const photo = javaScript ? await cameraPhoto(page) : JPEG_BYTES;
    await loginAs("staff2");
    const location = `Ticket yard ${unique()}`;
    const ticketNo = `LT-${unique().slice(-6).toUpperCase()}`;
    const plate = `Y${unique().slice(-7).toUpperCase()}`;
    await page.goto("/deliveries/new");
    await hydrated(page, javaScript);
    const dialog = page.getByRole("dialog", { name: "New Delivery Entry" });
    await dialog.getByLabel("Agent *").selectOption({ label: "Musa Ibrahim" });
    await dialog.getByLabel("Location *").fill(location);
    await dialog.getByLabel("Truck No.").fill(plate.toLowerCase());
    // Folded until opened: a summary a person taps, with or without JavaScript.
    await expect(dialog.getByLabel("Ticket No.")).toBeHidden();
    await dialog.getByText("Loading ticket", { exact: true }).click();
    await dialog.getByLabel("Ticket No.").fill(ticketNo.toLowerCase());
    await dialog.getByLabel("Gross (kg)").fill("12000");
    await dialog.getByLabel("Tare (kg)").fill("32480");
    await dialog.getByLabel("Weighed at").fill("2026-03-01T07:45");
    await dialog.getByLabel("Photo").setInputFiles({ name: "ticket.jpg", mimeType: "image/jpeg", buffer: photo });
    if (width === "phone" && javaScript) expect(await sidewaysScroll(page)).toBeNull();

    // Gross and tare the wrong way round: said under Gross, and what was typed stays.
    await dialog.getByRole("button", { name: "Record Delivery" }).click();
    await expect(dialog.getByLabel("Gross (kg)")).toHaveAccessibleDescription("Gross must be more than tare");
    await expect(dialog.getByLabel("Ticket No.")).toHaveValue(ticketNo.toLowerCase());
    await expect(dialog.getByLabel("Location *")).toHaveValue(location);
    if (javaScript) {
      // The open section with its message passes the accessibility check the walk runs.
      await page.evaluate(AXE_SOURCE);
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (width === "phone") expect(await sidewaysScroll(page)).toBeNull();
    }

    await dialog.getByLabel("Gross (kg)").fill("32480");
    await dialog.getByLabel("Tare (kg)").fill("12000");
    if (javaScript) await expect(dialog.getByRole("status").filter({ hasText: "Net" })).toHaveText("Net 20,480 kg");
    // Without JavaScript the page came back without the file: it is chosen again.
    if (!javaScript)
      await dialog.getByLabel("Photo").setInputFiles({ name: "ticket.jpg", mimeType: "image/jpeg", buffer: photo });
    await dialog.getByRole("button", { name: "Record Delivery" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Delivery Recorded" })).toContainText("20.48");

    const mine = await ok<{ id: number; location: string; tons: string; truckNo: string | null }[]>(
      await page.request.get("/api/deliveries"),
    );
    const recorded = mine.filter((d) => d.location === location);
    expect(recorded).toHaveLength(1);
    expect(recorded[0].truckNo).toBe(plate);
    expect(Number(recorded[0].tons)).toBe(20.48);
    const [event] = await recordedTicket(baseURL!, users.admin.email, recorded[0].id);
    expect(event.after).toMatchObject({ ticketNo, netKg: 20480, photoId: expect.any(Number) });
  });
}
