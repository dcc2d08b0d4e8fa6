// Lighthouse (the npm package, its default mobile preset: Moto G class screen, simulated slow
// 4G and 4x CPU slowdown) against Debian's Chromium, on the five target pages (bench/RESULTS.md), at a given
// size. A fresh database (PostgreSQL when DATABASE_URL is set, else PGlite) is seeded by
// bench/seed.ts, the production server is started on it, and each page is audited signed in
// as the bench admin. Prints a Markdown table (performance and accessibility scores, the
// metrics behind the performance score, and the host's benchmarkIndex, which says how fast
// this machine was while it ran) and writes bench/out/lighthouse.json.
// Usage (after `npm run build`): node bench/lighthouse.mjs [--size 100000] [--runs 1]
//   [--only /payments,/invoices]
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchDatabase } from "./database.mjs";
import { benchSignIn, run, waitForServer } from "./processes.mjs";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "100000" },
    runs: { type: "string", default: "1" },
    port: { type: "string" },
    only: { type: "string" },
  },
});
const SIZE = Number(values.size);
const RUNS = Number(values.runs);
const PORT = Number(values.port ?? process.env.BENCH_PORT ?? 4020) + 1;
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS =
  "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";
const ONLY = values.only?.split(",");
const PAGES = [
  ["New Delivery", "/deliveries/new"],
  ["Deliveries", "/deliveries"],
  ["Invoices", "/invoices"],
  ["Payments", "/payments"],
  ["Manager dashboard", "/"],
].filter(([, p]) => !ONLY || ONLY.includes(p));
const OUT = "bench/out";
mkdirSync(OUT, { recursive: true });

async function startServer(env) {
  const child = spawn("node", ["server.js"], {
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(PORT),
      SESSION_SECRET: "bench-secret",
      APP_ORIGIN: `http://localhost:${PORT}`,
      DELIVERY_CLIENT_NAME: "Kodan",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return waitForServer(child, PORT);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function audit(url, cookie) {
  const file = path.join(os.tmpdir(), `pks-lh-${process.pid}.json`);
  await run(
    "npx",
    [
      "lighthouse",
      url,
      "--quiet",
      "--only-categories=performance,accessibility",
      "--output=json",
      `--output-path=${file}`,
      `--chrome-flags=${CHROME_FLAGS}`,
      `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
    ],
    { CHROME_PATH: CHROME },
  );
  const r = JSON.parse(readFileSync(file, "utf8"));
  rmSync(file, { force: true });
  if (r.runtimeError) throw new Error(`${url}: ${r.runtimeError.message}`);
  const metric = (id) => r.audits[id]?.numericValue ?? null;
  const failing = Object.values(r.categories.accessibility.auditRefs)
    .map((ref) => r.audits[ref.id])
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
    .map((a) => a.id);
  return {
    performance: Math.round(r.categories.performance.score * 100),
    accessibility: Math.round(r.categories.accessibility.score * 100),
    fcpMs: metric("first-contentful-paint"),
    lcpMs: metric("largest-contentful-paint"),
    tbtMs: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    siMs: metric("speed-index"),
    benchmarkIndex: r.environment.benchmarkIndex,
    // The document's own time at the server, and every byte the page fetched (transfer size).
    serverResponseMs: metric("server-response-time"),
    totalBytes: metric("total-byte-weight"),
    // Where the main thread's time went (script evaluation, parse, style and layout...) and the
    // scripts that took it: what Total Blocking Time is made of.
    mainThreadMs: Object.fromEntries(
      (r.audits["mainthread-work-breakdown"]?.details?.items ?? []).map((i) => [i.group, Math.round(i.duration)]),
    ),
    bootupMs: (r.audits["bootup-time"]?.details?.items ?? [])
      .slice(0, 4)
      .map((i) => `${new URL(i.url, url).pathname} ${Math.round(i.scripting)}`),
    a11yFailing: failing,
    version: r.lighthouseVersion,
  };
}

const db = await benchDatabase(
  process.env.DATABASE_URL ? "postgres" : "pglite",
  `pks_bench_lighthouse_${process.pid}_${Date.now().toString(36)}`,
);
const rows = [];
try {
  console.error(`[lighthouse] ${db.driver}: seeding ${SIZE.toLocaleString("en")} deliveries`);
  await run("npx", ["tsx", "bench/seed.ts", "--size", String(SIZE), "--users", "0"], db.env);
  const server = await startServer(db.env);
  try {
    const cookie = await benchSignIn(PORT);
    for (const [name, p] of PAGES) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        // Lighthouse now and then fails to record the trace (NO_NAVSTART): try such a run again.
        for (let attempt = 1; ; attempt++) {
          try {
            runs.push(await audit(`http://localhost:${PORT}${p}`, cookie));
            break;
          } catch (error) {
            if (attempt >= 3 || !/NO_NAVSTART|trace/i.test(String(error))) throw error;
            console.error(`[lighthouse] ${name}: ${String(error).split("\n").at(-3)}; again`);
          }
        }
      }
      const pick = runs.find((x) => x.performance === median(runs.map((y) => y.performance)));
      rows.push({ name, path: p, ...pick, performanceRuns: runs.map((x) => x.performance) });
      console.error(`[lighthouse] ${name}: ${JSON.stringify(rows.at(-1))}`);
    }
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
} finally {
  await db.drop();
}

const lines = [
  `Lighthouse ${rows[0]?.version}, mobile preset (simulated throttling), ${db.driver}, ${SIZE.toLocaleString("en")} deliveries, admin session, ${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores.`,
  "",
  "| page | performance | accessibility | FCP ms | LCP ms | TBT ms | CLS | Speed Index ms | benchmarkIndex |",
  "|---|---|---|---|---|---|---|---|---|",
  ...rows.map(
    (r) =>
      `| ${r.name} (\`${r.path}\`) | ${r.performance}${r.performanceRuns.length > 1 ? ` (runs ${r.performanceRuns.join(", ")})` : ""} | ${r.accessibility}${r.a11yFailing.length ? ` (${r.a11yFailing.join(", ")})` : ""} | ${Math.round(r.fcpMs)} | ${Math.round(r.lcpMs)} | ${Math.round(r.tbtMs)} | ${r.cls.toFixed(3)} | ${Math.round(r.siMs)} | ${Math.round(r.benchmarkIndex)} |`,
  ),
];
writeFileSync(`${OUT}/lighthouse.json`, JSON.stringify(rows, null, 1));
console.log(lines.join("\n"));
