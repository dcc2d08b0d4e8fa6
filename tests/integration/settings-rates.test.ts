// Default rates saved by two admins at once (decision 0200): the System Settings form
// sends back the version it was read at, so a save over someone else's newer one is refused and
// changes nothing; the form then starts again from what is saved. A save that changes no value
// writes nothing. The JSON call takes the version too, and still saves without one.
import { desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { SETTINGS_CHANGED_MEANWHILE, loadSystemSettings } from "../../app/models/settings.server";
import * as ratesPage from "../../app/routes/_app.settings.rates";
import * as apiSettings from "../../app/routes/api.settings";
import { loginAs } from "../factories";
import { call, makeRequest } from "../http";

let first: Awaited<ReturnType<typeof loginAs>>;
let second: Awaited<ReturnType<typeof loginAs>>;

beforeAll(async () => {
  first = await loginAs("admin");
  second = await loginAs("admin");
});

async function saved() {
  const db = await getDb();
  return (await db.select().from(schema.settings).where(eq(schema.settings.id, 1)))[0];
}

async function settingsEvents() {
  const db = await getDb();
  return (
    await db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.action, "settings.update"))
  )[0].n;
}

const post = (who: typeof first, fields: Record<string, string>) =>
  call(ratesPage.action, makeRequest("/settings/rates", { method: "POST", cookie: who.cookie, form: fields }));

/** The form as System Settings renders it: every rate, and the version it was read at. */
async function formAsRead(who: typeof first) {
  const s = await loadSystemSettings(who.user);
  return {
    buyingRate: s.buyingRate,
    sellingRate: s.sellingRate,
    taxRate: s.taxRate,
    offloadingCost: s.offloadingCost,
    deliveryClientName: s.deliveryClientName,
    version: s.version,
  };
}

describe("the Default Rates form", () => {
  it("refuses a save over someone else's newer one, changes nothing, and starts again from what is saved", async () => {
    const firstForm = await formAsRead(first);
    const secondForm = await formAsRead(second);
    expect(secondForm.version).toBe(firstForm.version);

    const firstSave = await post(first, { ...firstForm, buyingRate: "51000.50" });
    expect(firstSave.status).toBe(302);
    const afterFirst = await saved();
    expect(afterFirst.buyingRate).toBe("51000.50");
    const events = await settingsEvents();

    // The second admin still has the form as read before: their old buying rate would undo the first save.
    const secondSave = await post(second, { ...secondForm, sellingRate: "66000" });
    expect(secondSave.status).toBe(409);
    const body = secondSave.body as {
      result: { error: Record<string, string[]> };
      saved: { buyingRate: string; sellingRate: string; version: string };
    };
    expect(body.result.error[""]).toEqual([SETTINGS_CHANGED_MEANWHILE]);
    expect(body.saved).toMatchObject({ buyingRate: "51000.50", sellingRate: afterFirst.sellingRate });
    expect(body.saved.version).not.toBe(secondForm.version);
    expect(await saved()).toEqual(afterFirst);
    expect(await settingsEvents()).toBe(events);

    // Made again on the form as it now stands, the change goes through and keeps the first one.
    const again = await post(second, {
      buyingRate: body.saved.buyingRate,
      sellingRate: "66000",
      taxRate: afterFirst.taxRate,
      offloadingCost: afterFirst.offloadingCost,
      version: body.saved.version,
    });
    expect(again.status).toBe(302);
    expect(await saved()).toMatchObject({ buyingRate: "51000.50", sellingRate: "66000.00", updatedBy: second.user.id });
    expect(await settingsEvents()).toBe(events + 1);
  });

  it("the delivery client shown from the environment, sent back untouched, is no change", async () => {
    const db = await getDb();
    await db.update(schema.settings).set({ deliveryClientName: null }).where(eq(schema.settings.id, 1));
    const form = await formAsRead(first);
    expect(form.deliveryClientName).not.toBe("");
    const events = await settingsEvents();
    expect((await post(first, form)).status).toBe(302);
    expect((await saved()).deliveryClientName).toBeNull();
    expect(await settingsEvents()).toBe(events);
  });

  it("a save that changes no value writes nothing, however the numbers are typed", async () => {
    const form = await formAsRead(first);
    const before = await saved();
    const events = await settingsEvents();
    // The same amounts as typed in the boxes: no decimals, a thousands separator.
    const same = await post(first, {
      ...form,
      buyingRate: Number(before.buyingRate).toLocaleString("en"),
      taxRate: String(Number(before.taxRate)),
    });
    expect(same.status).toBe(302);
    expect(await saved()).toEqual(before);
    expect(await settingsEvents()).toBe(events);
    // The version is unchanged, so the same form can still save a real change.
    expect((await post(first, { ...form, offloadingCost: "12500" })).status).toBe(302);
    expect((await saved()).offloadingCost).toBe("12500.00");
    expect(await settingsEvents()).toBe(events + 1);
  });
});

describe("PATCH /api/settings", () => {
  const patch = (who: typeof first, json: unknown) =>
    call(apiSettings.action, makeRequest("/api/settings", { method: "PATCH", cookie: who.cookie, json }));
  const read = async (who: typeof first) =>
    (await call(apiSettings.loader, makeRequest("/api/settings", { cookie: who.cookie }))).body as { version: string };

  it("refuses a stale version with 409 and saves without one, as before", async () => {
    const { version } = await read(first);
    expect((await patch(first, { sellingRate: "67000", version })).status).toBe(200);
    const stale = await patch(second, { sellingRate: "68000", version });
    expect(stale).toMatchObject({ status: 409, body: { message: SETTINGS_CHANGED_MEANWHILE } });
    expect((await saved()).sellingRate).toBe("67000.00");
    expect(await patch(second, { sellingRate: "68000" })).toMatchObject({
      status: 200,
      body: { sellingRate: "68000.00" },
    });
    // A version of null is no version.
    expect(await patch(second, { sellingRate: "68000.50", version: null })).toMatchObject({ status: 200 });
    const db = await getDb();
    const [last] = await db
      .select()
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.action, "settings.update"))
      .orderBy(desc(schema.auditEvents.id))
      .limit(1);
    expect(last.actorId).toBe(second.user.id);
  });
});
