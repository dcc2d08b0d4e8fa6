// New Delivery on a yard connection: how long until the form can be used, cold and online,
// and from the phone's cache with no network at all. Chrome DevTools Protocol network
// emulation: 400 kbit/s each way and +400 ms on every request. Not a test (timings on these
// machines are noisy); the figures go to bench/RESULTS.md. Usage, after `npm run build`:
//   node bench/yard-profile.mjs [--runs 5] [--port 4620]
// It starts the built app on a fresh embedded database (the e2e start script), signs in as
// the e2e staff user and drives Debian's Chromium through Playwright.
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    port: { type: "string", default: "4620" },
  },
});
const runs = Number(values.runs);
const port = Number(values.port);
const base = `http://localhost:${port}`;
const PROFILE = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

const server = spawn("npx", ["tsx", "tests/e2e/start-server.ts"], {
  env: { ...process.env, PORT: String(port) },
  stdio: ["ignore", "ignore", "inherit"],
  detached: true,
});
const stop = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    // already gone
  }
};
process.on("exit", stop);

async function waitForServer() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/login`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
};

/** ms from navigation start until the form is shown, and until it is hydrated and enabled. */
async function openForm(page) {
  const start = Date.now();
  await page.goto(`${base}/deliveries/new`, { waitUntil: "commit" });
  await page.locator('select[name="agentId"]').waitFor();
  const shown = Date.now() - start;
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.locator('button[type="submit"]:not([disabled])', { hasText: "Record Delivery" }).waitFor();
  return { shown, usable: Date.now() - start };
}

await waitForServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
  ],
});
const results = { online: [], offline: [] };
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const login = await context.request.post(`${base}/api/auth/password/login`, {
    data: { email: "staff@e2e.test", password: "e2e-password-123" },
    headers: { Origin: base },
  });
  if (login.status() !== 200) throw new Error(`sign-in failed: ${login.status()}`);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", PROFILE);
  results.online.push(await openForm(page));

  // Offline from the cache: only once a service worker holds the form (after this change).
  const cached = await page
    .evaluate(async () => {
      if (!("serviceWorker" in navigator)) return false;
      const registration = await Promise.race([
        navigator.serviceWorker.ready,
        new Promise((r) => setTimeout(() => r(null), 5000)),
      ]);
      if (!registration) return false;
      for (let t = 0; t < 100; t++) {
        if (document.documentElement.dataset.offlineReady === "true") return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    })
    .catch(() => false);
  if (cached) {
    await context.setOffline(true);
    const offlinePage = await context.newPage();
    results.offline.push(await openForm(offlinePage).catch(() => null));
  } else {
    results.offline.push(null);
  }
  await context.close();
}
await browser.close();

const line = (label, xs) => {
  const ok = xs.filter(Boolean);
  if (!ok.length) return `${label}: does not open`;
  return `${label}: shown ${median(ok.map((x) => x.shown))} ms, usable ${median(ok.map((x) => x.usable))} ms (median of ${ok.length}; usable runs ${ok.map((x) => x.usable).join(", ")})`;
};
console.log(line("cold, online (400 kbit/s, +400 ms)", results.online));
console.log(line("offline, from the phone's cache", results.offline));
stop();
process.exit(0);
