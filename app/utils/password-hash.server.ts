// bcrypt off the event loop (decision 0503). bcryptjs is plain JavaScript: each
// hash or compare at cost 10 is about 100 ms of CPU, and on the main thread that time is
// taken from every other request (the 50-user load spent 41% of the server's CPU in it).
// Here it runs in a small pool of worker threads; the scheme and the stored hashes are
// unchanged, so nothing needs migrating. If a worker cannot start, the work runs inline.
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import bcrypt from "bcryptjs";

type Job = { id: number; op: "hash" | "compare"; password: string; arg: string | number };
type Pending = { resolve: (value: string | boolean) => void; reject: (error: Error) => void };
type Slot = { worker: Worker; busy: number };

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const bcrypt = require(workerData.bcryptPath);
parentPort.on("message", async (job) => {
  try {
    const value = job.op === "hash" ? await bcrypt.hash(job.password, job.arg) : await bcrypt.compare(job.password, job.arg);
    parentPort.postMessage({ id: job.id, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String(error && error.message || error) });
  }
});
`;

const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1 || 1));
let slots: Slot[] | null = null;
let disabled = process.env.PASSWORD_HASH_INLINE === "1";
let nextId = 1;
const pending = new Map<number, Pending>();

function startPool(): Slot[] | null {
  if (disabled) return null;
  if (slots) return slots;
  try {
    const bcryptPath = createRequire(import.meta.url).resolve("bcryptjs");
    slots = Array.from({ length: POOL_SIZE }, () => {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath } });
      // Idle workers never keep the process (or a test run) alive.
      worker.unref();
      const slot: Slot = { worker, busy: 0 };
      worker.on("message", (msg: { id: number; value?: string | boolean; error?: string }) => {
        slot.busy--;
        const job = pending.get(msg.id);
        pending.delete(msg.id);
        if (!job) return;
        if (msg.error !== undefined) job.reject(new Error(msg.error));
        else job.resolve(msg.value as string | boolean);
      });
      worker.on("error", () => fail());
      worker.on("exit", () => fail());
      return slot;
    });
    return slots;
  } catch {
    disabled = true;
    return null;
  }
}

// A worker that dies takes its jobs with it: they are redone inline, and later calls too.
function fail() {
  if (disabled) return;
  disabled = true;
  const stranded = [...pending.values()];
  pending.clear();
  for (const s of slots ?? []) void s.worker.terminate();
  slots = null;
  for (const job of stranded) job.reject(new Error("password worker stopped"));
}

function inline(op: Job["op"], password: string, arg: string | number): Promise<string | boolean> {
  return op === "hash" ? bcrypt.hash(password, arg as number) : bcrypt.compare(password, arg as string);
}

function run(op: Job["op"], password: string, arg: string | number): Promise<string | boolean> {
  const pool = startPool();
  if (!pool) return inline(op, password, arg);
  const slot = pool.reduce((a, b) => (b.busy < a.busy ? b : a));
  const id = nextId++;
  return new Promise<string | boolean>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    slot.busy++;
    // Only a job in flight keeps the process alive.
    slot.worker.ref();
    slot.worker.postMessage({ id, op, password, arg } satisfies Job);
  })
    .finally(() => {
      if (slot.busy <= 0) slot.worker.unref();
    })
    .catch((error: Error) => {
      if (error.message !== "password worker stopped") throw error;
      return inline(op, password, arg);
    });
}

export const bcryptHash = (password: string, cost: number) => run("hash", password, cost) as Promise<string>;
export const bcryptCompare = (password: string, hash: string) => run("compare", password, hash) as Promise<boolean>;
