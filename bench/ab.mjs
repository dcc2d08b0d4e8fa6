// Two builds of the app side by side on one fresh database, for a change whose effect is
// smaller than this machine's noise between runs: the server's requests a second, the two
// loaded in alternating slices (bench/http-load.mjs --pair), and the browser's main-thread time
// on a phone-sized page with the CPU slowed 4x, loads of the two alternating. Build the other
// side first, for example in a worktree that shares this checkout's packages:
//   git worktree add /tmp/before HEAD~1 && ln -s "$PWD/node_modules" /tmp/before/node_modules
//   (cd /tmp/before && npx remix build) && npx remix build
//   DATABASE_URL=postgres://... node bench/ab.mjs --a /tmp/before --b . --url /payments
// PostgreSQL only: the two servers share one database, and PGlite serves one process.
import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright";
import { benchDatabase } from "./database.mjs";
import { benchSignIn, run, waitForServer } from "./processes.mjs";

const { values } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string", default: "." },
    url: { type: "string", default: "/payments" },
    size: { type: "string", default: "10000" },
    pairs: { type: "string", default: "3" },
    seconds: { type: "string", default: "8" },
    loads: { type: "string", default: "8" },
    port: { type: "string", default: "4500" },
  },
});
if (!values.a || !process.env.DATABASE_URL) {
  console.error("Usage: DATABASE_URL=postgres://... node bench/ab.mjs --a DIR --b DIR [--url /payments]");
  process.exit(2);
}
const SIDES = [
  ["A", path.resolve(values.a), Number(values.port) + 1],
  ["B", path.resolve(values.b), Number(values.port) + 2],
];

async function start(dir, port, env) {
  const child = spawn("node", ["server.js"], {
    cwd: dir,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      SESSION_SECRET: "bench-secret",
      APP_ORIGIN: `http://localhost:${port}`,
    },
    stdio: ["ignore", "ignore", "ignore"],
  });
  return waitForServer(child, port);
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const db = await benchDatabase("postgres", `pks_bench_ab_${process.pid}_${Date.now().toString(36)}`);
const servers = [];
try {
  console.error(`[ab] seeding ${Number(values.size).toLocaleString("en")} deliveries`);
  await run("npx", ["tsx", "bench/seed.ts", "--size", values.size, "--users", "0"], db.env);
  for (const [, dir, port] of SIDES) servers.push(await start(dir, port, db.env));
  // Sessions live in the database and both servers share the secret: one cookie serves both.
  const cookie = await benchSignIn(SIDES[0][2]);
  const at = (port) => `http://localhost:${port}${values.url}`;

  console.log(`${values.url}, ${values.size} deliveries, A ${SIDES[0][1]}, B ${SIDES[1][1]}`);
  for (let i = 0; i < Number(values.pairs); i++) {
    const out = await run("node", [
      "bench/http-load.mjs",
      ...["--url", at(SIDES[0][2]), "--pair", at(SIDES[1][2]), "--cookie", cookie],
      ...["--connections", "10", "--seconds", values.seconds],
    ]);
    const r = JSON.parse(out.slice(out.indexOf("{")));
    const ratio = r.pair.requestsPerSecond / r.requestsPerSecond;
    console.log(
      `server pair ${i + 1}: A ${r.requestsPerSecond} req/s (p99 ${r.p99ms} ms, ${r.bytesPerResponse} B), B ${r.pair.requestsPerSecond} req/s (p99 ${r.pair.p99ms} ms, ${r.pair.bytesPerResponse} B): B/A ${ratio.toFixed(3)}; errors ${r.errors + r.pair.errors}`,
    );
  }

  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
  });
  const loads = { A: [], B: [] };
  const [name, ...rest] = cookie.split("=");
  for (let i = 0; i < Number(values.loads); i++) {
    for (const [side, , port] of SIDES) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addCookies([{ name, value: rest.join("="), domain: "localhost", path: "/" }]);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      // Long tasks' time over 50 ms: what Lighthouse sums as Total Blocking Time.
      await page.addInitScript(() => {
        window.__blocking = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__blocking += Math.max(0, e.duration - 50);
        }).observe({ type: "longtask", buffered: true });
      });
      await page.goto(at(port), { waitUntil: "networkidle" });
      await page.waitForTimeout(300);
      const metrics = Object.fromEntries(
        (await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]),
      );
      loads[side].push({
        scriptMs: metrics.ScriptDuration * 1000,
        taskMs: metrics.TaskDuration * 1000,
        blockingMs: await page.evaluate(() => window.__blocking),
      });
      await context.close();
    }
  }
  await browser.close();
  for (const [side] of SIDES) {
    const m = (key) => Math.round(median(loads[side].map((l) => l[key])));
    console.log(
      `browser ${side} (median of ${loads[side].length}): task ${m("taskMs")} ms, script ${m("scriptMs")} ms, long tasks over 50 ms ${m("blockingMs")} ms`,
    );
  }
} finally {
  for (const server of servers) server.kill("SIGTERM");
  await Promise.all(servers.map((s) => new Promise((r) => (s.exitCode !== null ? r() : s.once("exit", r)))));
  await db.drop();
}
