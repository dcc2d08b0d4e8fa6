// A bounded load loop against this machine only: N connections request one URL for a fixed
// time and report requests/second and latency percentiles. Usage:
//   node bench/http-load.mjs --url http://localhost:3000/deliveries --cookie "__session=..." \
//     --connections 20 --seconds 10
// With --pair URL2 the two URLs are loaded in alternating slices of --slice seconds (default
// 1) for --seconds each, so both see the same machine: on a CPU shared with other work the
// ratio of their requests per second is then steady even when absolute figures are not. The
// pair's figures are under "pair".
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    cookie: { type: "string", default: "" },
    connections: { type: "string", default: "20" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    pair: { type: "string" },
    slice: { type: "string", default: "1" },
  },
});
const url = new URL(values.url ?? "");
const pair = values.pair ? new URL(values.pair) : null;
if (![url, ...(pair ? [pair] : [])].every((u) => ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname))) {
  console.error("This benchmark only targets this machine (localhost).");
  process.exit(2);
}
const connections = Number(values.connections);
const headers = values.cookie ? { Cookie: values.cookie } : {};

async function run(seconds, record, target = url, acc = { latencies: [], errors: 0, bytes: 0, elapsed: 0 }) {
  const started = performance.now();
  const until = Date.now() + seconds * 1000;
  const { latencies } = acc;
  let errors = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const start = performance.now();
        try {
          const response = await fetch(target, { headers, redirect: "manual" });
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
  acc.errors += errors;
  acc.bytes += bytes;
  // Time until the last request of the slice came back: the slice's real length.
  acc.elapsed += (performance.now() - started) / 1000;
  return acc;
}

function summary(target, { latencies, errors, bytes, elapsed }, seconds) {
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
  return {
    url: target.pathname + target.search,
    connections,
    seconds,
    requests: latencies.length,
    requestsPerSecond: Number((latencies.length / (elapsed || seconds)).toFixed(1)),
    p50ms: Number(pct(50)),
    p99ms: Number(pct(99)),
    errors,
    bytesPerResponse: latencies.length ? Math.round(bytes / latencies.length) : 0,
  };
}

const seconds = Number(values.seconds);
await run(Number(values.warmup), false);
if (!pair) {
  console.log(JSON.stringify(summary(url, await run(seconds, true), seconds)));
} else {
  await run(Number(values.warmup), false, pair);
  const slice = Number(values.slice);
  const mine = { latencies: [], errors: 0, bytes: 0, elapsed: 0 };
  const theirs = { latencies: [], errors: 0, bytes: 0, elapsed: 0 };
  for (let done = 0; done < seconds; done += slice) {
    await run(slice, true, url, mine);
    await run(slice, true, pair, theirs);
  }
  console.log(JSON.stringify({ ...summary(url, mine, seconds), pair: summary(pair, theirs, seconds) }));
}
