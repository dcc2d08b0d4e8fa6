// A bounded load loop against this machine only: N connections request one URL for a fixed
// time and report requests/second and latency percentiles. Usage:
//   node bench/http-load.mjs --url http://localhost:3000/deliveries --cookie "__session=..." \
//     --connections 20 --seconds 10
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    cookie: { type: "string", default: "" },
    connections: { type: "string", default: "20" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
  },
});
const url = new URL(values.url ?? "");
if (!["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
  console.error("This benchmark only targets this machine (localhost).");
  process.exit(2);
}
const connections = Number(values.connections);
const headers = values.cookie ? { Cookie: values.cookie } : {};

async function run(seconds, record) {
  const until = Date.now() + seconds * 1000;
  const latencies = [];
  let errors = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const start = performance.now();
        try {
          const response = await fetch(url, { headers, redirect: "manual" });
          const body = await response.arrayBuffer();
          bytes += body.byteLength;
          if (response.status >= 400) errors++;
        } catch {
          errors++;
        }
        if (record) latencies.push(performance.now() - start);
      }
    }),
  );
  return { latencies, errors, bytes };
}

await run(Number(values.warmup), false);
const seconds = Number(values.seconds);
const { latencies, errors, bytes } = await run(seconds, true);
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
console.log(
  JSON.stringify({
    url: url.pathname + url.search,
    connections,
    seconds,
    requests: latencies.length,
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50ms: Number(pct(50)),
    p99ms: Number(pct(99)),
    errors,
    bytesPerResponse: latencies.length ? Math.round(bytes / latencies.length) : 0,
  }),
);
