// A private PostgreSQL cluster for fault tests: initdb into a temporary folder, its own port,
// stopped and started at will. Never the shared server.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  for (const v of readdirSync(root).sort((a, b) => Number(b) - Number(a))) {
    const bin = path.join(root, v, "bin");
    if (existsSync(path.join(bin, "initdb")) && existsSync(path.join(bin, "pg_ctl"))) return bin;
  }
  return null;
}

/** Why the PostgreSQL fault tests cannot run here, or null when they can. */
export function clusterUnavailableReason(): string | null {
  if (!postgresBinDir()) return "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (initdb, pg_ctl)";
  if (process.getuid?.() === 0 && spawnSync("id", ["postgres"]).status !== 0)
    return "running as root without a postgres user to run initdb";
  return null;
}

export type Cluster = {
  port: number;
  url: (database?: string) => string;
  start: () => void;
  stop: () => void;
  createDatabase: (name: string) => Promise<void>;
  /** From now on these logins must give their password over TCP (scram); everyone else stays trusted. */
  requirePasswords: (roles: string[]) => void;
  destroy: () => void;
};

export function startCluster(port: number): Cluster {
  const bin = postgresBinDir()!;
  const dir = mkdtempSync(path.join(os.tmpdir(), "pks-ops-pg-"));
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  // initdb and the server refuse to run as root.
  const run = (program: string, args: string[]) => {
    const command = asRoot ? "runuser" : path.join(bin, program);
    const argv = asRoot ? ["-u", "postgres", "--", path.join(bin, program), ...args] : args;
    const result = spawnSync(command, argv, { encoding: "utf8", timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout}`);
  };
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c full_page_writes=off",
    "-c max_connections=60",
    "-c shared_buffers=32MB",
  ].join(" ");
  const start = () =>
    run("pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "-o", options, "start"]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
  start();
  const url = (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    start,
    stop,
    async createDatabase(name: string) {
      const admin = postgres(url(), { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`create database ${name}`);
      } finally {
        await admin.end();
      }
    },
    requirePasswords(roles: string[]) {
      const hba = path.join(data, "pg_hba.conf");
      const line = `host all ${roles.join(",")} 127.0.0.1/32 scram-sha-256\n`;
      writeFileSync(hba, line + readFileSync(hba, "utf8"));
      run("pg_ctl", ["-D", data, "reload"]);
    },
    destroy() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
