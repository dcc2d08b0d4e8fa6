// After a load: read the database and the ledger side by side.
import { spawn, spawnSync } from "node:child_process";
import postgres from "postgres";
import { REPO } from "./app";
import type { Ledger } from "./load";

/** Runs `npm run db:check` (tsx db/check.ts) against a database; returns its exit code and output. */
export function dbCheck(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "db/check.ts"], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", ...env },
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Deliveries and payments in PostgreSQL against the ledger. */
export async function ledgerAgainstPostgres(url: string, ledger: Ledger) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const keys = [...ledger.deliveries.keys()];
    const claimed = keys.length
      ? await sql<
          { key: string; resource_id: string }[]
        >`select key, resource_id from idempotency_keys where key in ${sql(keys)} and scope = 'delivery.create'`
      : [];
    const ids = [...ledger.deliveries.values()];
    const present = ids.length ? await sql<{ id: number }[]>`select id from deliveries where id in ${sql(ids)}` : [];
    const [{ n: opsDeliveries }] = await sql<
      { n: number }[]
    >`select count(*)::int as n from deliveries where location like 'Ops yard %'`;
    const paymentIds = [...ledger.payments.keys()];
    const paymentsPresent = paymentIds.length
      ? await sql<{ id: number }[]>`select id from payments where id in ${sql(paymentIds)}`
      : [];
    const [{ n: paymentsTotal }] = await sql<{ n: number }[]>`select count(*)::int as n from payments`;
    return {
      keysClaimedOnce:
        claimed.length === keys.length && claimed.every((c) => String(ledger.deliveries.get(c.key)) === c.resource_id),
      deliveriesPresent: present.length,
      opsDeliveries,
      paymentsPresent: paymentsPresent.length,
      paymentsTotal,
    };
  } finally {
    await sql.end();
  }
}

/** Runs one of the db: scripts (db/backup.ts, db/restore.ts) without blocking the event loop. */
export function runScript(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string; ms: number }>((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", ...env },
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    child.on("exit", (code) => resolve({ code, output, ms: Date.now() - started }));
  });
}
