// `npm run bench`: the whole measurement in one command, bounded in time, this machine only.
// For each driver (PostgreSQL when DATABASE_URL is set, and PGlite) and each size (1,000 and
// 100,000 deliveries; 1,000,000 with --million): a fresh database seeded by bench/seed.ts, the
// production server started on it with the bare yardstick page, every page and list call
// loaded for BENCH_SECONDS (default 3; the four pages with a p99 target for BENCH_P99_SECONDS,
// default 15) by bench/http-load.mjs, and the server's memory watched
// while a full GET /api/invoices streams. Then the 50-user mixed load (bench/mixed-load.mjs)
// at 10,000 deliveries on each driver and the exactly-once check (bench/check-writes.ts).
// With --lighthouse, Lighthouse's mobile scores of five pages too (bench/lighthouse.mjs, at
// BENCH_LIGHTHOUSE_SIZE deliveries, default 100,000). --only-mixed skips the per-URL sizes.
// Prints a Markdown report and writes it to bench/out/report.md.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { benchDatabase } from "./database.mjs";
import { benchSignIn, run, waitForServer } from "./processes.mjs";

const { values } = parseArgs({
  options: {
    million: { type: "boolean", default: false },
    "no-mixed": { type: "boolean", default: false },
    "only-mixed": { type: "boolean", default: false },
    lighthouse: { type: "boolean", default: false },
    driver: { type: "string" },
    // Comma-separated list of the paths to load (the bare page is always loaded first).
    only: { type: "string" },
  },
});
// Databases are named per run (pid and time), so two benches, or a bench and another
// engineer's tests on the same PostgreSQL, never share or drop each other's database.
const RUN_ID = `${process.pid}_${Date.now().toString(36)}`;
const SECONDS = process.env.BENCH_SECONDS ?? "3";
// The targets (bench/RESULTS.md) hold these four to a p99 of at most twice the bare page's. A p99 needs samples: in
// 3 s a page at ~110 requests a second gives about 330, so its p99 is the fourth-slowest request
// and one pause of the machine moves it by half. These run longer (about 1,600 requests each at
// 15 s) so the ratio measures the page, not the slice.
const P99_SECONDS = process.env.BENCH_P99_SECONDS ?? "15";
const P99_PATHS = new Set(["/deliveries/new", "/deliveries", "/invoices", "/api/deliveries?limit=50"]);
const MIXED_SECONDS = process.env.BENCH_MIXED_SECONDS ?? "30";
// Users arrive over this many seconds (decision 0503); 0 is everyone at once.
const MIXED_RAMP = process.env.BENCH_MIXED_RAMP ?? "10";
const PORT = Number(process.env.BENCH_PORT ?? 4020);
const OUT = "bench/out";
mkdirSync(OUT, { recursive: true });
const drivers = values.driver ? [values.driver] : process.env.DATABASE_URL ? ["postgres", "pglite"] : ["pglite"];
const sizes = values["only-mixed"] ? [] : [1000, 100000, ...(values.million ? [1000000] : [])];
const ALL_PATHS = [
  "/bench/bare",
  "/",
  "/deliveries/new",
  "/deliveries",
  "/invoices",
  "/invoices?status=overdue",
  "/payments",
  "/receipts",
  "/withholdings",
  "/withholdings?status=outstanding",
  "/reconciliation",
  "/reports/profit?{window}&by=month",
  "/reports/profit?{window}&by=agent",
  "/reports/profit?{window}&by=month&then=agent",
  "/tax",
  "/receivables",
  "/agents/owed",
  "/agents/1/statement",
  "/clients/1/statement",
  "/trucks",
  "/api/deliveries?limit=50",
  "/api/invoices?limit=50",
  "/api/payments?limit=50",
  "/api/agents?limit=50",
  "/api/clients?limit=50",
  "/api/trucks?limit=50",
  "/api/reports/profit?{window}&by=site",
];
// `{window}` in a path: the last 12 months, this month included (`from=YYYY-MM&to=YYYY-MM`), which
// the seed fills at every size, so a report is measured over the same months at each size.
const thisMonth = new Date();
const yearAgo = new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() - 11, 1));
const WINDOW = `from=${yearAgo.toISOString().slice(0, 7)}&to=${thisMonth.toISOString().slice(0, 7)}`;
const PATHS = (
  values.only ? ["/bench/bare", ...values.only.split(",").filter((p) => p && p !== "/bench/bare")] : ALL_PATHS
).map((p) => p.replace("{window}", WINDOW));

async function startServer(env) {
  const child = spawn("node", ["server.js"], {
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(PORT),
      SESSION_SECRET: "bench-secret",
      APP_ORIGIN: `http://localhost:${PORT}`,
      BENCH_BARE: "1",
      DELIVERY_CLIENT_NAME: "Kodan",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  return waitForServer(child, PORT, { tries: 120, output: () => err });
}

async function stop(child) {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

async function streamMemory(pid, cookie) {
  const before = rssKb(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 20);
  const res = await fetch(`http://localhost:${PORT}/api/invoices`, { headers: { Cookie: cookie } });
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  clearInterval(timer);
  return { bytes, rssBeforeMb: Math.round(before / 1024), growthMb: Math.round((peak - before) / 1024) };
}

const results = [];
const memory = [];
const mixed = [];
for (const driver of drivers) {
  for (const size of sizes) {
    console.error(`[bench] ${driver} ${size}: seeding`);
    const db = await benchDatabase(driver, `pks_bench_${size}_${RUN_ID}`);
    try {
      await run("npx", ["tsx", "bench/seed.ts", "--size", String(size), "--users", "0"], db.env);
      const server = await startServer(db.env);
      try {
        const cookie = await benchSignIn(PORT);
        for (const p of PATHS) {
          // Every URL but the bare page itself is loaded in alternating 1 s slices with the bare
          // page, so its ratio to the bare page is measured under the same machine load.
          const pair = p === "/bench/bare" ? [] : ["--pair", `http://localhost:${PORT}/bench/bare`];
          const out = await run("node", [
            "bench/http-load.mjs",
            "--url",
            `http://localhost:${PORT}${p}`,
            ...pair,
            "--cookie",
            cookie,
            "--connections",
            "10",
            "--seconds",
            P99_PATHS.has(p) ? String(Math.max(Number(SECONDS), Number(P99_SECONDS))) : SECONDS,
            "--warmup",
            "1",
          ]);
          results.push({ driver, size, ...JSON.parse(out) });
          console.error(`[bench] ${driver} ${size} ${out.trim()}`);
        }
        if (size >= 100000) memory.push({ driver, size, ...(await streamMemory(server.pid, cookie)) });
      } finally {
        await stop(server);
      }
    } finally {
      await db.drop();
    }
  }
  if (!values["no-mixed"]) {
    console.error(`[bench] ${driver}: mixed load, 50 users, 10,000 deliveries`);
    const db = await benchDatabase(driver, `pks_bench_mixed_${RUN_ID}`);
    try {
      await run("npx", ["tsx", "bench/seed.ts", "--size", "10000", "--users", "50"], db.env);
      const server = await startServer(db.env);
      let load;
      try {
        load = JSON.parse(
          await run("node", [
            "bench/mixed-load.mjs",
            "--base",
            `http://localhost:${PORT}`,
            "--users",
            "50",
            "--seconds",
            MIXED_SECONDS,
            "--ramp",
            MIXED_RAMP,
            "--out",
            `${OUT}/mixed-acks-${driver}.json`,
          ]),
        );
      } finally {
        await stop(server);
      }
      const check = JSON.parse(
        await run("npx", ["tsx", "bench/check-writes.ts", `${OUT}/mixed-acks-${driver}.json`], db.env, {
          anyExit: true,
        }),
      );
      mixed.push({ driver, load, check });
    } finally {
      await db.drop();
    }
  }
}

const lines = [
  `Run ${new Date().toISOString()}, BENCH_SECONDS=${SECONDS} (BENCH_P99_SECONDS=${P99_SECONDS} for ${[...P99_PATHS].join(", ")}), 10 connections, production build, admin session, load average at the end ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores.`,
  "",
];
for (const driver of sizes.length ? drivers : []) {
  const bare = Object.fromEntries(
    sizes.map((s) => [s, results.find((r) => r.driver === driver && r.size === s && r.url === "/bench/bare")]),
  );
  lines.push(
    `### ${driver}`,
    "",
    `| page or call | ${sizes.map((s) => `${s.toLocaleString("en")}: p50 / p99 ms, bytes, req/s (x bare req/s; p99 x bare p99)`).join(" | ")} | time ${sizes.at(-1).toLocaleString("en")} / ${sizes[0].toLocaleString("en")} (p50) |`,
    `|---|${sizes.map(() => "---|").join("")}---|`,
  );
  for (const p of PATHS) {
    const cells = sizes.map((s) => {
      const r = results.find((x) => x.driver === driver && x.size === s && x.url === p);
      if (!r) return "-";
      const yardstick = r.pair ?? bare[s];
      const ratio = yardstick?.requestsPerSecond ? (r.requestsPerSecond / yardstick.requestsPerSecond).toFixed(2) : "-";
      const p99 = yardstick?.p99ms ? (r.p99ms / yardstick.p99ms).toFixed(2) : "-";
      return `${r.p50ms} / ${r.p99ms}, ${r.bytesPerResponse.toLocaleString("en")} B, ${r.requestsPerSecond} (${ratio}x; p99 ${p99}x)${r.errors ? `, ${r.errors} errors` : ""}`;
    });
    const first = results.find((x) => x.driver === driver && x.size === sizes[0] && x.url === p);
    const last = results.find((x) => x.driver === driver && x.size === sizes.at(-1) && x.url === p);
    const growth = first && last ? (last.p50ms / first.p50ms).toFixed(2) : "-";
    lines.push(`| \`${p}\` | ${cells.join(" | ")} | ${growth} |`);
  }
  lines.push("");
}
if (memory.length) {
  lines.push(
    "### Full `GET /api/invoices`, streamed",
    "",
    "| driver | deliveries | bytes | server RSS before | growth while streaming |",
    "|---|---|---|---|---|",
  );
  for (const m of memory)
    lines.push(
      `| ${m.driver} | ${m.size.toLocaleString("en")} | ${m.bytes.toLocaleString("en")} | ${m.rssBeforeMb} MB | ${m.growthMb} MB |`,
    );
  lines.push("");
}
if (mixed.length) {
  lines.push(
    `### Mixed load: 50 users arriving over ${MIXED_RAMP} s, think time 0-1 s, ${MIXED_SECONDS} s, 10,000 deliveries`,
    "",
    "| driver | requests | 5xx | failed | over 5 s | p50 ms | p99 ms | p99 ms without sign-ins | acknowledged writes (deliveries / invoices / payments) | exactly once |",
    "|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const m of mixed) {
    const a = m.load.acknowledged;
    lines.push(
      `| ${m.driver} | ${m.load.requests} | ${m.load.status5xx} | ${m.load.failed} | ${m.load.over5s} | ${m.load.p50ms} | ${m.load.p99ms} | ${m.load.p99WithoutSignInMs} | ${a.deliveries} / ${a.invoices} / ${a.payments} | ${m.check.exactlyOnce ? "yes" : `NO: ${m.check.problems.join("; ")}`} |`,
    );
  }
  lines.push("");
  for (const m of mixed) {
    lines.push(
      `${m.driver} per kind: ` +
        Object.entries(m.load.kinds)
          .map(([k, v]) => `${k} n=${v.n} p50=${v.p50ms} p99=${v.p99ms} [${v.statuses.join(",")}]`)
          .join("; "),
      "",
    );
  }
}
if (values.lighthouse) {
  console.error("[bench] lighthouse");
  const size = process.env.BENCH_LIGHTHOUSE_SIZE ?? "100000";
  lines.push("### Lighthouse", "", await run("node", ["bench/lighthouse.mjs", "--size", size, "--port", String(PORT)]));
}
const report = lines.join("\n");
writeFileSync(`${OUT}/report.md`, report + "\n");
writeFileSync(`${OUT}/results.json`, JSON.stringify({ results, memory, mixed }, null, 1));
console.log(report);
