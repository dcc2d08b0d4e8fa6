// Where a page's server CPU goes: seeds a fresh database (or reuses --database-url), starts the
// production server under `node --cpu-prof`, loads one URL for --seconds with 10 connections
// (bench/http-load.mjs, this machine only), stops the server and prints the profile's self time
// by package (node_modules/<name>, the app's server bundle, node internals, GC, idle) and its
// 25 heaviest functions. The .cpuprofile lands in bench/out/profiles/ (open it in Chrome
// DevTools for the call tree). Usage (after `npm run build`):
//   DATABASE_URL=postgres://... node bench/profile.mjs --url /deliveries [--size 10000] [--seconds 10]
// Without DATABASE_URL it profiles PGlite.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchDatabase } from "./database.mjs";
import { benchSignIn, run, waitForServer } from "./processes.mjs";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "/deliveries" },
    size: { type: "string", default: "10000" },
    seconds: { type: "string", default: "10" },
    port: { type: "string", default: "4030" },
    label: { type: "string", default: "" },
  },
});
const PORT = Number(values.port);
const OUT = path.resolve("bench/out/profiles");
mkdirSync(OUT, { recursive: true });

const db = await benchDatabase(
  process.env.DATABASE_URL ? "postgres" : "pglite",
  `pks_prof_${process.pid}_${Date.now().toString(36)}`,
);
try {
  await run("npx", ["tsx", "bench/seed.ts", "--size", values.size, "--users", "0"], db.env);
  const dir = mkdtempSync(path.join(OUT, "run-"));
  const server = spawn("node", ["--cpu-prof", "--cpu-prof-dir", dir, "server.js"], {
    env: {
      ...process.env,
      ...db.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      SESSION_SECRET: "bench-secret",
      APP_ORIGIN: `http://localhost:${PORT}`,
      BENCH_BARE: "1",
      DELIVERY_CLIENT_NAME: "Kodan",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitForServer(server, PORT);
  const cookie = await benchSignIn(PORT);
  const load = JSON.parse(
    await run("node", [
      "bench/http-load.mjs",
      "--url",
      `http://localhost:${PORT}${values.url}`,
      "--cookie",
      cookie,
      "--connections",
      "10",
      "--seconds",
      values.seconds,
      "--warmup",
      "2",
    ]),
  );
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  // One profile per thread (the password-hash worker has its own): the main thread's is the largest.
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const total = profile.endTime - profile.startTime;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const groups = new Map();
  const fns = new Map();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id);
    const url = callFrame.url;
    let group;
    if (!url) group = callFrame.functionName.startsWith("(") ? callFrame.functionName : "(native)";
    else if (url.includes("node_modules/")) {
      const rest = url.split("node_modules/").at(-1).split("/");
      group = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    } else if (url.includes("/build/")) group = "app (build/index.js)";
    else if (url.startsWith("node:")) group = "node internals";
    else group = path.relative(process.cwd(), url.replace("file://", ""));
    groups.set(group, (groups.get(group) ?? 0) + us);
    const fn = `${callFrame.functionName || "(anonymous)"} ${group}:${callFrame.lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }
  const busy = total - (groups.get("(idle)") ?? 0);
  const requests = load.requests;
  console.log(
    `${values.label ? `${values.label}: ` : ""}${values.url}, ${values.size} deliveries, ${requests} requests in ${values.seconds} s ` +
      `(${load.requestsPerSecond}/s, p50 ${load.p50ms} ms, p99 ${load.p99ms} ms), load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(" ")}`,
  );
  console.log(
    `profile ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (includes start-up), ` +
      `${(busy / 1000 / requests).toFixed(1)} ms CPU a request\n`,
  );
  console.log("| where | self % of busy | ms a request |\n|---|---|---|");
  for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    if (g === "(idle)") continue;
    console.log(`| ${g} | ${((100 * us) / busy).toFixed(1)} | ${(us / 1000 / requests).toFixed(2)} |`);
  }
  console.log("\n| function | self % of busy |\n|---|---|");
  for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    if (f.startsWith("(idle)")) continue;
    console.log(`| ${f} | ${((100 * us) / busy).toFixed(1)} |`);
  }
  console.log(`\nprofile: ${path.relative(process.cwd(), file)}`);
} finally {
  await db.drop();
}
