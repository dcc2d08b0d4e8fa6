import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://localhost:${PORT}`;

// Debian's Chromium, never a downloaded browser; the flags keep it off the closed network.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// tests/e2e/chromium.sh runs CHROMIUM_PATH (default /usr/bin/chromium) with the features no
// journey uses switched off.
const launchOptions = {
  executablePath: fileURLToPath(new URL("tests/e2e/chromium.sh", import.meta.url)),
  args: CHROMIUM_ARGS,
};

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: BASE_URL,
    launchOptions,
    trace: "off",
    ...devices["Desktop Chrome"],
  },
  // Every journey runs twice: with JavaScript and without it.
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "nojs", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    // The same script scripts/test-all.sh runs (with the seeding environment it sets).
    command: "bash tests/e2e/serve.sh",
    url: `${BASE_URL}/login`,
    timeout: 120_000,
    // scripts/test-all.sh starts this same command while the database tests run and says so;
    // anywhere else a server already on the port is an error, never silently used.
    reuseExistingServer: process.env.E2E_SERVER_STARTED === "1",
    stdout: "pipe",
    stderr: "pipe",
    env: { E2E_PORT: String(PORT) },
  },
});
