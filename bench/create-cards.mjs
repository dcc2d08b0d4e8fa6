// New Delivery's create with and without rate cards (decision 1230), in one run: two databases
// seeded alike, one given 1,000 cards (cards naming the delivery client, the agents and the
// pick-up sites the creates use, from many days), one server on each from the same build, and
// POST /api/deliveries sent to the two in alternating slices, so the machine's noise falls on
// both sides alike. Prints each slice's creates a second and latencies, and the medians.
//   npx remix build
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/create-cards.mjs [--cards 1000]
// PostgreSQL only (a database per side, named per run, dropped afterwards).
/* global fetch */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { benchDatabase } from "./database.mjs";
import { benchSignIn, run, waitForServer } from "./processes.mjs";

const { values } = parseArgs({
  options: {
    cards: { type: "string", default: "1000" },
    size: { type: "string", default: "1000" },
    pairs: { type: "string", default: "6" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "4" },
    port: { type: "string", default: "4510" },
  },
});
if (!process.env.DATABASE_URL) {
  console.error("Usage: DATABASE_URL=postgres://... node bench/create-cards.mjs [--cards 1000]");
  process.exit(2);
}

function start(port, env) {
  const child = spawn("node", ["server.js"], {
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      SESSION_SECRET: "bench-secret",
      APP_ORIGIN: `http://localhost:${port}`,
      DELIVERY_CLIENT_NAME: "Kodan",
    },
    stdio: ["ignore", "ignore", "ignore"],
  });
  return waitForServer(child, port);
}

/** 1,000 cards (by default) of every kind and scope, from one day each, so none ties: written directly, a seed. */
async function addCards(url, count) {
  const { default: postgres } = await import("postgres");
  const db = postgres(url, { max: 1, onnotice: () => {} });
  await db.unsafe(`
    insert into rate_cards (kind, rate, valid_from, client_id, agent_id, site, site_key, created_by)
    select (array['buying','selling','offloading','haulage'])[1 + i % 4], 1000 + i, date '2023-01-01' + i,
      case when i % 2 = 0 then (select id from clients where name = 'Kodan') end,
      case when i % 3 = 0 then 1 + i % 50 end,
      case when i % 5 < 2 then 'Card Site ' || (i % 7) end, case when i % 5 < 2 then 'cardsite' || (i % 7) end,
      (select id from users where role = 'admin' order by created_at limit 1)
    from generate_series(1, ${Number(count)}) i`);
  await db.unsafe("analyze rate_cards");
  const [{ n }] = await db.unsafe("select count(*)::int as n from rate_cards");
  await db.end();
  return n;
}

/** How the bench's creates got their buying and selling rates: "card" or "default", with counts. */
async function sources(url) {
  const { default: postgres } = await import("postgres");
  const db = postgres(url, { max: 1, onnotice: () => {} });
  const rows = await db.unsafe(`
    select buying_rate_source as buying, selling_rate_source as selling, haulage_card_id is not null as haulage,
      count(*)::int as n
    from deliveries where location like 'Card Site %' group by 1, 2, 3 order by 4 desc`);
  await db.end();
  return rows.map((r) => `${r.n} buying ${r.buying}, selling ${r.selling}, haulage card ${r.haulage}`).join("; ");
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

/** Creates for `seconds` on `connections` at once; each a new Idempotency-Key, a site and agent the cards name. */
async function slice(port, cookie, tag) {
  const until = Date.now() + Number(values.seconds) * 1000;
  const times = [];
  let errors = 0;
  let n = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const i = n++;
      const started = performance.now();
      const res = await fetch(`http://localhost:${port}/api/deliveries`, {
        method: "POST",
        headers: {
          Cookie: cookie,
          Origin: `http://localhost:${port}`,
          "Content-Type": "application/json",
          "Idempotency-Key": `${tag}-${i}-${randomUUID()}`,
        },
        body: JSON.stringify({ agentId: 1 + (i % 50), tons: "12.50", location: `Card Site ${i % 7}` }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) errors++;
      else times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: Number(values.connections) }, worker));
  return {
    perSecond: times.length / Number(values.seconds),
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    errors,
  };
}

const id = `${process.pid}_${Date.now().toString(36)}`;
const sides = [
  { name: "no cards", db: await benchDatabase("postgres", `pks_bench_nocards_${id}`), port: Number(values.port) + 1 },
  {
    name: `${values.cards} cards`,
    db: await benchDatabase("postgres", `pks_bench_cards_${id}`),
    port: Number(values.port) + 2,
  },
];
const servers = [];
try {
  for (const side of sides) {
    console.error(`[create-cards] seeding ${side.name}`);
    await run("npx", ["tsx", "bench/seed.ts", "--size", values.size, "--users", "0"], side.db.env);
  }
  console.error(`[create-cards] cards: ${await addCards(sides[1].db.env.DATABASE_URL, values.cards)}`);
  for (const side of sides) {
    servers.push(await start(side.port, side.db.env));
    side.cookie = await benchSignIn(side.port);
    side.runs = [];
  }
  // One warm-up slice each, not counted.
  for (const side of sides) await slice(side.port, side.cookie, "warm");
  for (let i = 0; i < Number(values.pairs); i++) {
    // Alternate which side goes first, so a trend in the machine's load favours neither.
    for (const side of i % 2 ? [...sides].reverse() : sides)
      side.runs.push(await slice(side.port, side.cookie, `p${i}`));
    const [a, b] = sides.map((s) => s.runs.at(-1));
    console.log(
      `pair ${i + 1}: ${sides[0].name} ${a.perSecond.toFixed(1)}/s p50 ${a.p50.toFixed(0)} ms p99 ${a.p99.toFixed(0)} ms; ` +
        `${sides[1].name} ${b.perSecond.toFixed(1)}/s p50 ${b.p50.toFixed(0)} ms p99 ${b.p99.toFixed(0)} ms; ` +
        `ratio ${(b.perSecond / a.perSecond).toFixed(3)}; errors ${a.errors + b.errors}`,
    );
  }
  const median = (xs) => quantile(xs, 0.5);
  for (const side of sides) {
    console.log(
      `median of ${side.runs.length}, ${side.name}: ${median(side.runs.map((r) => r.perSecond)).toFixed(1)} creates/s, ` +
        `p50 ${median(side.runs.map((r) => r.p50)).toFixed(0)} ms, p99 ${median(side.runs.map((r) => r.p99)).toFixed(0)} ms`,
    );
  }
  const ratios = sides[0].runs.map((a, i) => sides[1].runs[i].perSecond / a.perSecond);
  console.log(
    `creates/s with cards ÷ without, per pair: ${ratios.map((r) => r.toFixed(3)).join(", ")}; median ${median(ratios).toFixed(3)}`,
  );
  // What the creates with cards were priced by: each of them should name a card.
  for (const side of sides) console.log(`${side.name}: ${await sources(side.db.env.DATABASE_URL)}`);
} finally {
  for (const server of servers) server.kill("SIGTERM");
  await Promise.all(servers.map((s) => new Promise((r) => (s.exitCode !== null ? r() : s.once("exit", r)))));
  for (const side of sides) await side.db.drop();
}
