import { expect, hydrated, saveRates, test } from "./fixtures";

// Two admins and the Default Rates form (decision 0200): a save over someone else's
// newer one is refused with a message, the form starts again from what is saved, and the change
// made again goes through. With JavaScript on and off.

test("a rates form read before someone else's save says so, shows what is saved, and saves when made again", async ({
  page,
  loginAs,
  javaScript,
}) => {
  // The projects run at once, and other journeys save the rates: each project here changes only
  // a rate no other journey checks after saving it through the form.
  const field = javaScript
    ? { label: "Tax Rate (%)", key: "taxRate", value: `${10 + Math.floor(Math.random() * 80)}.25` }
    : {
        label: "Offloading Cost (₦ per delivery)",
        key: "offloadingCost",
        value: `${1000 + Math.floor(Math.random() * 8999)}.75`,
      };
  await loginAs("admin");
  await page.goto("/settings");
  await hydrated(page, javaScript);
  const rates = page.getByRole("region", { name: "Default Rates Configuration" });
  const typed = await rates.getByLabel(field.label).inputValue();

  // Meanwhile another admin (here the JSON call) saves a new value of this rate.
  const other = await page.request.patch("/api/settings", { data: { [field.key]: field.value } });
  expect(other.status()).toBe(200);
  const otherValue = ((await other.json()) as Record<string, string>)[field.key];

  // This page still shows the old value; saving it as it stands would undo the other save.
  await rates.getByRole("button", { name: "Save Rates" }).click();
  await expect(rates.getByRole("alert")).toContainText(
    "Someone else saved these settings after you opened them. The form now shows what is saved",
  );
  await expect(page.getByText("Settings updated successfully")).toHaveCount(0);
  const shown = await rates.getByLabel(field.label).inputValue();
  expect(shown.replace(/,/g, "")).not.toBe(typed.replace(/,/g, ""));
  expect(Number(shown.replace(/,/g, ""))).toBe(Number(otherValue));
  const afterRefusal = (await (await page.request.get("/api/settings")).json()) as Record<string, string>;
  expect(afterRefusal[field.key]).toBe(otherValue);

  // Made again on the form as it now stands, the change goes through.
  const mine = javaScript ? "9.5" : "2,500";
  await saveRates(page, () => rates.getByLabel(field.label).fill(mine));
  await expect(page.getByRole("status")).toContainText("Settings updated successfully");
  const afterSave = (await (await page.request.get("/api/settings")).json()) as Record<string, string>;
  expect(Number(afterSave[field.key])).toBe(Number(mine.replace(",", "")));
});
