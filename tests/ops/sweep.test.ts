// "Bad input gets a clear message and changes nothing; never a 500", held for every route at
// once: the built server, signed in as an admin, is sent odd ids, odd query strings, bodies that
// are not forms, garbage forms and broken cookies, on every page, dialog, export and /api route
// (taken from app/routes, so a new route is swept too). No answer may be a 5xx, and the server
// must log no error. Sweeps like this found the 500s recorded in decision 0820.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appPort } from "./support/ports";
import { buildMissingReason, REPO, startApp, type AppProcess } from "./support/app";
import { signIn } from "./support/client";
import { seed, type Seeded } from "./support/seed";

const missing = buildMissingReason();
if (missing) console.warn(`ops sweep skipped: ${missing}`);

// Routes whose writes would end the sweep's own session or change its password or role: their
// pages are still read.
const NO_WRITES = /logout|password\.change|settings\.password|two-factor_\.disable|settings\.role/;
const IDS = ["1", "99999999999999999999x"];
const QUERIES = [
  "",
  "?cursor=zzz&limit=abc",
  "?status=zzz&month=2026-13",
  "?from=2026-02-30&to=abc&clientId=abc",
  // Remix's old data protocol: answered, and logged as a warning only.
  "?_data=root",
  // Months and days no page can compute, or that no business date can be (decision 0841).
  "?month=9999-12&confirm=9999-12&cursor=9999-12&from=9999-12-31&to=9999-12-31&date=9999-12-31",
  "?month=1969-12&before=0001-01&from=0001-01-01&to=1969-12-31&asOf=1969-12-31",
];
const BODIES: [string, string][] = [
  ["application/json", '{"amount":"abc","tons":-1,"date":"2026-02-30","invoiceId":"x"}'],
  ["text/plain", "amount=100"],
  ["application/x-www-form-urlencoded", "intent=zzz&amount=abc&tons=-1&date=2026-02-30&invoiceId=x&agentId=1.5"],
  ["multipart/form-data; boundary=zz", '--zz\r\nContent-Disposition: form-data; name="amount"\r\n\r\n1'],
  // Dates out of range, a month no page can compute, a text with a right-to-left override and
  // a lone surrogate (decisions 0841 and 0705).
  [
    "application/x-www-form-urlencoded",
    "intent=generate&month=9999-12&date=9999-12-31&paymentDate=1969-12-31&payoutDate=2099-01-01&name=a%E2%80%AEb&location=%ED%A0%80",
  ],
  [
    "application/json",
    '{"month":"9999-12","date":"9999-12-31","paymentDate":"1969-12-31","name":"a\\u202eb","location":"\\ud800"}',
  ],
];
// Broken plain cookies beside a good session, then a session cookie that is not one.
const COOKIES = ["sidebar_state=%zz; theme=%E0%A4%A", "__session=garbage"];

/** Each route file as the URLs it answers, its parameters filled with each odd id. */
function sweepPaths(files: string[]): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    const segments = file
      .replace(/\.tsx?$/, "")
      .replace(/^_app\.?/, "")
      .replace(/(^|\.)_index$/, "")
      .split(".")
      .filter(Boolean)
      .map((segment) => segment.replace(/_$/, ""));
    const ids = segments.some((segment) => segment.startsWith("$")) ? IDS : ["-"];
    for (const id of ids) {
      paths.add("/" + segments.map((s) => (s === "$" ? "no/such/page" : s.startsWith("$") ? id : s)).join("/"));
    }
  }
  return [...paths];
}

describe.skipIf(missing)("a sweep of every route with bad input (built server, PGlite)", () => {
  let dir: string;
  let seeded: Seeded;
  let app: AppProcess;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "pks-ops-sweep-"));
    seeded = await seed({ driver: "pglite", dataDir: path.join(dir, "db") }, { staff: 1, managers: 0, admins: 1 });
    // Bound to one interface (HOST): 127.0.0.2, loopback too, is refused.
    app = await startApp({
      port: appPort(51),
      database: { pgliteDir: path.join(dir, "db") },
      env: { HOST: "127.0.0.1" },
    });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds the routes to sweep", () => {
    const files = readdirSync(path.join(REPO, "app/routes")).filter((f) => /\.tsx?$/.test(f) && !/\.test\./.test(f));
    expect(sweepPaths(files).length).toBeGreaterThan(150);
    expect(sweepPaths(["_app.invoices_.$id.void.tsx", "_app._index.tsx", "api.$.ts"])).toEqual([
      ...IDS.map((id) => `/invoices/${id}/void`),
      "/",
      "/api/no/such/page",
    ]);
  });

  it("answers every request below 500 and logs no error", async () => {
    const files = readdirSync(path.join(REPO, "app/routes")).filter((f) => /\.tsx?$/.test(f) && !/\.test\./.test(f));
    const writable = new Set(sweepPaths(files.filter((f) => !NO_WRITES.test(f))));
    const admin = await signIn(app.url, seeded.admins[0], seeded.password);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const send = async (method: string, url: string, headers: Record<string, string>, body?: string) => {
      sent++;
      const response = await fetch(`${app.url}${url}`, {
        method,
        headers: { Origin: app.url, ...headers },
        body,
        redirect: "manual",
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) failures.push(`${response.status} ${method} ${url} ${JSON.stringify(headers)}`);
    };
    const logBefore = app.logs().length;
    for (const url of sweepPaths(files)) {
      for (const query of QUERIES) await send("GET", url + query, { Cookie: admin });
      await send("GET", `${url === "/" ? "/_root" : url}.data`, { Cookie: admin });
      await send("GET", url, { Cookie: `${admin}; ${COOKIES[0]}` });
      await send("GET", url, { Cookie: COOKIES[1] });
      if (!writable.has(url)) continue;
      for (const [type, body] of BODIES) {
        await send("POST", url, { Cookie: admin, "Content-Type": type }, body);
        if (url.startsWith("/api/")) await send("PATCH", url, { Cookie: admin, "Content-Type": type }, body);
      }
    }
    // The sweep stayed signed in to the end (a route that ended its session would have turned
    // every later request into a harmless redirect), and its requests reached the pages and
    // the form checks, not only refusals.
    expect((await fetch(`${app.url}/api/auth/user`, { headers: { Cookie: admin } })).status).toBe(200);
    expect(statuses.get(200)).toBeGreaterThan(200);
    expect(statuses.get(415)).toBeGreaterThan(20);
    console.log(`sweep: ${sent} requests`);
    expect(failures).toEqual([]);
    const errors = app
      .logs()
      .slice(logBefore)
      .split("\n")
      .filter((line) => /"level":"(error|fatal)"|^\s+at /.test(line));
    expect(errors).toEqual([]);
  }, 300_000);

  it("refuses bodies nested too deep, the TRACE method, dates out of range and invisible text, writing nothing", async () => {
    const admin = await signIn(app.url, seeded.admins[0], seeded.password);
    const post = async (url: string, body: string, type = "application/json") => {
      const response = await fetch(`${app.url}${url}`, {
        method: "POST",
        headers: { Origin: app.url, Cookie: admin, "Content-Type": type },
        body,
      });
      return { status: response.status, text: await response.text() };
    };
    const deep = (n: number) => "[".repeat(n) + "1" + "]".repeat(n);
    for (const [url, field] of [
      ["/api/invoices", "deliveryId"],
      ["/api/invoices", "invoiceNo"],
      ["/api/payments", "invoiceId"],
      ["/api/deliveries", "agentId"],
    ]) {
      for (const depth of [5_000, 100_000]) {
        const reply = await post(url, `{"${field}":${deep(depth)},"amount":"1","tons":"1","location":"Deep"}`);
        expect(reply.status, `${url} ${field} ${depth}`).toBe(400);
      }
    }
    // TRACE (or another method the app does not answer) on any path: 405, never a 500 (fetch
    // refuses to send TRACE itself). TRACK never reaches the app: Node's parser answers 400.
    for (const url of ["/", "/login", "/deliveries", "/api/deliveries", "/healthz", "/build/none.js", "/no/such"]) {
      for (const method of ["TRACE", "PROPFIND", "TRACK"]) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = http.request(`${app.url}${url}`, { method, headers: { Cookie: admin } });
          req.on("response", (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on("error", reject);
          req.end();
        });
        expect(status, `${method} ${url}`).toBe(method === "TRACK" ? 400 : 405);
      }
    }
    const delivery = (extra: Record<string, unknown>) =>
      JSON.stringify({ agentId: seeded.agentIds[0], tons: "1.00", location: "Sweep yard", ...extra });
    for (const date of ["9999-12-31", "2099-01-01", "1969-12-31", "1999-12-31"]) {
      const reply = await post("/api/deliveries", delivery({ date }));
      expect(reply.status, date).toBe(400);
      expect(reply.text).toMatch(/Date must be/);
    }
    // Written as JSON escapes: fetch itself would send a lone surrogate as U+FFFD.
    for (const location of ["Yard\\u202eevil", "Ya\\u200brd", "Yard\\u2066x", "\\ufeffYard", "Yard\\ud800"]) {
      const reply = await post(
        "/api/deliveries",
        `{"agentId":${seeded.agentIds[0]},"tons":"1","location":"${location}"}`,
      );
      expect(reply.status, location).toBe(400);
    }
    // A form whose bytes are not UTF-8 (a lone surrogate written as bytes) is refused, not read as U+FFFD.
    const form = await post(
      "/deliveries/new",
      `agentId=${seeded.agentIds[0]}&tons=1&location=Yard%ED%A0%80`,
      "application/x-www-form-urlencoded",
    );
    expect(form.status).toBe(400);
    const stored = await fetch(`${app.url}/api/deliveries?limit=50`, { headers: { Cookie: admin } });
    expect(await stored.text()).not.toMatch(/Sweep yard|Deep|\u202e|\ufffd/i);
  });

  it("answers the print view to a script's fetch, the health checks with the pages' headers, on HOST only", async () => {
    const admin = await signIn(app.url, seeded.admins[0], seeded.password);
    const headers = { Origin: app.url, Cookie: admin, "Content-Type": "application/json" };
    // An agent and a client of its own: the sweep before it deleted agents and renamed New
    // Delivery's fixed client.
    const create = async (url: string, name: string) => {
      const created = await fetch(`${app.url}${url}`, { method: "POST", headers, body: JSON.stringify({ name }) });
      expect(created.status).toBe(201);
      return ((await created.json()) as { id: number }).id;
    };
    const agentId = await create("/api/agents", "Print agent");
    const clientId = await create("/api/clients", "Print client");
    const delivery = await fetch(`${app.url}/api/deliveries`, {
      method: "POST",
      headers,
      body: JSON.stringify({ agentId, clientId, tons: "2.00", location: "Print yard" }),
    });
    expect(delivery.status).toBe(201);
    const { id: deliveryId } = (await delivery.json()) as { id: number };
    const invoice = await fetch(`${app.url}/api/invoices`, {
      method: "POST",
      headers,
      body: JSON.stringify({ deliveryId }),
    });
    expect(invoice.status).toBe(201);
    const { id: invoiceId } = (await invoice.json()) as { id: number };
    // Node's fetch says Sec-Fetch-Mode: cors; it was redirected to the same URL until it gave up.
    const print = await fetch(`${app.url}/invoices/${invoiceId}/print`, { headers: { Cookie: admin } });
    expect(print.status).toBe(200);
    expect(print.redirected).toBe(false);
    expect(await print.text()).toContain("Balance Due");

    await expect(fetch(`http://127.0.0.2:${app.port}/healthz`)).rejects.toThrow();

    const page = await fetch(`${app.url}/login`);
    for (const url of ["/healthz", "/readyz"]) {
      const health = await fetch(`${app.url}${url}`);
      expect(health.status).toBe(200);
      for (const name of ["X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy"])
        expect(health.headers.get(name), `${url} ${name}`).toBe(page.headers.get(name));
      expect(health.headers.get("Content-Security-Policy")).toMatch(/frame-ancestors 'none'/);
      expect(health.headers.get("Cache-Control")).toBe("no-store");
    }
  });

  it("answers a malformed forwarded address with 400, and survives an odd path that asks before sending", async () => {
    const forwarded: Record<string, string>[] = [{ "X-Forwarded-Host": "a b" }, { "X-Forwarded-Proto": "a b" }];
    for (const headers of forwarded) {
      const response = await fetch(`${app.url}/login`, { headers });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: "The request's address is malformed" });
    }
    // "//" is not a URL Node can parse: read outside Express (the 100-continue check), it once
    // threw there, where nothing would catch it.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${app.url}//`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": "2", Expect: "100-continue" },
      });
      req.on("continue", () => req.end("{}"));
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(status).toBeLessThan(500);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});
