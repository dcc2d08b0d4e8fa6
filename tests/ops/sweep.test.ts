// "Bad input gets a clear message and changes nothing; never a 500", held for every route at
// once: the built server, signed in as an admin, is sent odd ids, odd query strings, bodies that
// are not forms, garbage forms and broken cookies, on every page, dialog, export and /api route
// (taken from app/routes, so a new route is swept too). No answer may be a 5xx, and the server
// must log no error. Sweeps like this found the 500s of decision 0820's stop-31 addendum.
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
];
const BODIES: [string, string][] = [
  ["application/json", '{"amount":"abc","tons":-1,"date":"2026-02-30","invoiceId":"x"}'],
  ["text/plain", "amount=100"],
  ["application/x-www-form-urlencoded", "intent=zzz&amount=abc&tons=-1&date=2026-02-30&invoiceId=x&agentId=1.5"],
  ["multipart/form-data; boundary=zz", '--zz\r\nContent-Disposition: form-data; name="amount"\r\n\r\n1'],
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
    app = await startApp({ port: appPort(51), database: { pgliteDir: path.join(dir, "db") } });
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
