// 50 users with think time against this machine: reads, new deliveries, invoices, payments and
// sign-ins. Every write carries a unique mark; the acknowledged ones are written to --out for
// bench/check-writes.ts, which checks each is in the database exactly once. A write that
// fails on the network is retried once with the same Idempotency-Key (deliveries).
// Mix per step: 55% reads, 20% new deliveries (staff: every non-read), 10% invoices, 12%
// payments, 3% sign-ins again. An invoice or payment with nothing to bill or pay yet is a read
// instead (it used to fall through to a sign-in, which made a quarter of all requests bcrypt
// sign-ins early in the run). Users arrive spread over --ramp seconds (default 10; 0 = all 50
// sign in within the same millisecond, the worst case): decision 0503.
// Usage: node bench/mixed-load.mjs --base http://localhost:4020 --users 50 --seconds 30 --ramp 10 --out file.json
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    users: { type: "string", default: "50" },
    seconds: { type: "string", default: "30" },
    think: { type: "string", default: "500" },
    ramp: { type: "string", default: "10" },
    out: { type: "string", default: "bench/out/mixed-acks.json" },
    password: { type: "string", default: "bench-password-123" },
  },
});
const base = new URL(values.base ?? "");
if (!["localhost", "127.0.0.1", "[::1]"].includes(base.hostname)) {
  console.error("This load only targets this machine (localhost).");
  process.exit(2);
}
const origin = base.origin;
const until = Date.now() + Number(values.seconds) * 1000;
const samples = [];
const acks = { deliveries: [], invoices: [], payments: [] };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const think = () => sleep(Math.random() * 2 * Number(values.think));

async function request(kind, path, { method = "GET", cookie, json, headers = {} } = {}) {
  const start = performance.now();
  let status = 0;
  let body = null;
  try {
    const response = await fetch(new URL(path, origin), {
      method,
      redirect: "manual",
      headers: {
        Origin: origin,
        ...(cookie ? { Cookie: cookie } : {}),
        ...(json ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body: json ? JSON.stringify(json) : undefined,
    });
    status = response.status;
    const text = await response.text();
    if ((response.headers.get("content-type") ?? "").includes("json")) body = JSON.parse(text);
    samples.push({ kind, ms: performance.now() - start, status });
    return { status, body, headers: response.headers };
  } catch (error) {
    samples.push({ kind, ms: performance.now() - start, status: 0 });
    return { status: 0, body: null, error };
  }
}

async function signIn(email) {
  const res = await request("sign-in", "/api/auth/password/login", {
    method: "POST",
    json: { email, password: values.password },
  });
  const cookie = res.headers?.get("set-cookie")?.split(";")[0];
  return res.status === 200 && cookie ? cookie : null;
}

const READS = [
  "/",
  "/deliveries",
  "/invoices",
  "/payments",
  "/deliveries/new",
  "/api/deliveries?limit=50",
  "/api/invoices?limit=50",
  "/reconciliation",
];

async function user(i) {
  await sleep((i / Number(values.users)) * Number(values.ramp) * 1000);
  const email = `bench-user-${i}@example.com`;
  const staff = i % 5 === 0;
  let cookie = await signIn(email);
  const mine = [];
  const invoices = [];
  while (Date.now() < until && cookie) {
    let roll = Math.random();
    // Nothing to invoice or pay yet: read instead.
    if (!staff && ((roll >= 0.75 && roll < 0.85 && !mine.length) || (roll >= 0.85 && roll < 0.97 && !invoices.length)))
      roll = 0;
    if (roll < 0.55) {
      const path = READS[Math.floor(Math.random() * (staff ? 2 : READS.length))];
      await request(`GET ${path.split("?")[0]}`, path, { cookie });
    } else if (roll < 0.75 || staff) {
      const key = randomUUID();
      const json = { agentId: 1 + (i % 50), tons: "12.50", location: `mix-${key}` };
      let res = await request("POST delivery", "/api/deliveries", {
        method: "POST",
        cookie,
        json,
        headers: { "Idempotency-Key": key },
      });
      if (res.status === 0)
        res = await request("POST delivery (retry)", "/api/deliveries", {
          method: "POST",
          cookie,
          json,
          headers: { "Idempotency-Key": key },
        });
      if (res.status === 201 || res.status === 200) {
        acks.deliveries.push({ id: res.body.id, location: json.location });
        mine.push(res.body.id);
      }
    } else if (roll < 0.85) {
      const deliveryId = mine.shift();
      const res = await request("POST invoice", "/api/invoices", { method: "POST", cookie, json: { deliveryId } });
      if (res.status === 201) {
        acks.invoices.push({ id: res.body.id, deliveryId, invoiceNo: res.body.invoiceNo });
        invoices.push(res.body.id);
      }
    } else if (roll < 0.97) {
      const invoiceId = invoices[Math.floor(Math.random() * invoices.length)];
      const res = await request("POST payment", "/api/payments", {
        method: "POST",
        cookie,
        json: { invoiceId, amount: "1.00", reference: `mix-${randomUUID()}` },
      });
      if (res.status === 201) acks.payments.push({ id: res.body.id, invoiceId, reference: res.body.reference });
    } else {
      cookie = (await signIn(email)) ?? cookie;
    }
    await think();
  }
}

await Promise.all(Array.from({ length: Number(values.users) }, (_, i) => user(i)));
writeFileSync(values.out, JSON.stringify(acks));
const byKind = {};
for (const s of samples) (byKind[s.kind] ??= []).push(s);
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const summary = {
  requests: samples.length,
  status5xx: samples.filter((s) => s.status >= 500).length,
  failed: samples.filter((s) => s.status === 0).length,
  over5s: samples.filter((s) => s.ms > 5000).length,
  kinds: {},
};
const all = samples.map((s) => s.ms).sort((a, b) => a - b);
summary.p50ms = Math.round(pct(all, 50) ?? 0);
summary.p99ms = Math.round(pct(all, 99) ?? 0);
// Sign-ins are bcrypt by design (about 100 ms of CPU each): also the figure without them.
const pages = samples
  .filter((s) => s.kind !== "sign-in")
  .map((s) => s.ms)
  .sort((a, b) => a - b);
summary.p99WithoutSignInMs = Math.round(pct(pages, 99) ?? 0);
for (const [kind, xs] of Object.entries(byKind)) {
  const ms = xs.map((s) => s.ms).sort((a, b) => a - b);
  summary.kinds[kind] = {
    n: xs.length,
    p50ms: Math.round(pct(ms, 50)),
    p99ms: Math.round(pct(ms, 99)),
    statuses: [...new Set(xs.map((s) => s.status))].sort(),
  };
}
summary.acknowledged = {
  deliveries: acks.deliveries.length,
  invoices: acks.invoices.length,
  payments: acks.payments.length,
};
console.log(JSON.stringify(summary));
