// Starts the built app (server.js) as a child process, as an operator would.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../..", import.meta.url));

export function buildMissingReason() {
  return existsSync(path.join(REPO, "build/index.js")) ? null : "no production build: run `npx remix build` first";
}

export type AppProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  logs: () => string;
  exited: Promise<number | null>;
  signal: (signal: NodeJS.Signals) => void;
  stop: () => Promise<number | null>;
};

export async function startApp({
  port,
  database,
  env = {},
  preload,
}: {
  port: number;
  database: { url: string } | { pgliteDir: string };
  env?: Record<string, string>;
  preload?: string;
}): Promise<AppProcess> {
  const args = [...(preload ? ["--import", preload] : []), "server.js"];
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      SESSION_SECRET: "ops-test-secret",
      APP_TIME_ZONE: "Africa/Lagos",
      DELIVERY_CLIENT_NAME: "Kodan",
      // Production waits 5 s after SIGTERM for a load balancer; the tests stop at once unless a test asks.
      DRAIN_DELAY_MS: "0",
      ...("url" in database ? { DATABASE_URL: database.url } : { PGLITE_DIR: database.pgliteDir }),
      ...env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  let running = true;
  exited.then(() => (running = false));
  for (let i = 0; i < 600 && running; i++) {
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!running) throw new Error(`the app exited before it listened:\n${output}`);
  return {
    url,
    port,
    child,
    logs: () => output,
    exited,
    signal: (signal) => child.kill(signal),
    async stop() {
      if (running) child.kill("SIGTERM");
      return exited;
    },
  };
}
