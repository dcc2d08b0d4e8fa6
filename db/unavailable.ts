// "The database cannot answer right now": unreachable, shutting down, a statement or lock
// timed out, or every connection is busy. Callers answer these with 503 and Retry-After
// (app/utils/unavailable.server.ts); anything else is a real failure.

import { AsyncLocalStorage } from "node:async_hooks";

type UnavailableReason = "pool" | "timeout" | "unreachable";

export class DatabaseUnavailableError extends Error {
  readonly status = 503;
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

// Node's socket errors and postgres.js's own connection codes.
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);

// SQLSTATEs that mean "try again shortly", not "your request is wrong".
const TIMEOUT_STATES = new Set([
  "57014", // query_canceled: statement_timeout
  "55P03", // lock_not_available: lock_timeout
  "25P03", // idle_in_transaction_session_timeout
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);
const UNREACHABLE_STATES = new Set([
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up or shutting down)
  "53300", // too_many_connections
  "53000", // insufficient_resources
]);

/**
 * `error`, then its `cause`, that one's `cause`, and so on: the drivers and drizzle wrap the
 * error that says what happened (drizzle's "Failed query" carries the SQLSTATE in its cause).
 * Objects only, at most 8 deep, so a cycle cannot loop.
 */
export function* causeChain(error: unknown): Generator<object> {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/** The reason when `error` (or anything in its cause chain) means the database cannot answer now. */
export function unavailableReason(error: unknown): UnavailableReason | null {
  for (const current of causeChain(error)) {
    if (current instanceof DatabaseUnavailableError) return current.reason;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (CONNECTION_CODES.has(code) || code.startsWith("08")) return "unreachable";
      if (UNREACHABLE_STATES.has(code)) return "unreachable";
      if (TIMEOUT_STATES.has(code)) return "timeout";
      // A named statement whose table changed its column types under it (a newer instance's
      // migration): outside a transaction postgres.js prepares it again by itself; inside one
      // the transaction is lost, and the statement is dropped, so the next try works (decision
      // 0509).
      if (code === "0A000" && (current as { routine?: unknown }).routine === "RevalidateCachedQuery") return "timeout";
    }
    const message = (current as { message?: unknown }).message;
    if (typeof message === "string" && /^PGlite is clos(ed|ing)$/.test(message)) return "unreachable";
  }
  return null;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableReason(error) !== null;
}

/**
 * The moment (epoch ms) after which the current request may no longer wait for a connection.
 * A request makes several queries; without a shared budget each could wait the full bound in
 * turn. Set per loader/action by app/utils/unavailable.server.ts.
 */
export const admissionDeadline = new AsyncLocalStorage<number>();

/**
 * A bounded queue in front of the connections: at most `size` callers hold one at a time, the
 * rest wait in order, and a caller that waits longer than `waitMs` gets a
 * DatabaseUnavailableError("pool") instead of its query ever being sent. Bounding the wait
 * here, before the driver sees the query, means a request answered 503 for a full pool never
 * runs later behind the client's back.
 */
export class ConnectionGate {
  private active = 0;
  private readonly waiting: Array<{ grant: () => void; timer: NodeJS.Timeout }> = [];

  constructor(
    readonly size: number,
    readonly waitMs: number,
  ) {}

  get busy() {
    return this.active;
  }

  get queued() {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.size && this.waiting.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    const deadline = admissionDeadline.getStore();
    const waitMs = deadline === undefined ? this.waitMs : Math.min(this.waitMs, deadline - Date.now());
    if (waitMs <= 0) {
      return Promise.reject(
        new DatabaseUnavailableError("pool", "This request already waited its share for a database connection"),
      );
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          clearTimeout(entry.timer);
          this.active++;
          resolve();
        },
        timer: setTimeout(() => {
          const index = this.waiting.indexOf(entry);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(new DatabaseUnavailableError("pool", `No database connection became free within ${waitMs} ms`));
        }, waitMs),
      };
      this.waiting.push(entry);
    });
  }

  private release() {
    this.active--;
    const next = this.waiting.shift();
    if (next) next.grant();
  }
}
