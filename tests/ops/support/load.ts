// The ops tests' own mixed load: staff record deliveries with idempotency keys, managers
// invoice them and record part payments, and people sign in. Every answer is written down so
// the test can prove afterwards that nothing acknowledged was lost or doubled.
import { randomUUID } from "node:crypto";
import { request, signIn, type Reply } from "./client";
import type { Seeded } from "./seed";

export type Ledger = {
  statuses: Map<number, number>;
  /** Delivery idempotency key -> delivery id, for every 2xx. */
  deliveries: Map<string, number>;
  /** Delivery keys not (yet) acknowledged, with the body to send again. */
  pendingDeliveries: Map<string, { cookie: string; body: Record<string, unknown> }>;
  invoices: Map<number, { invoiceNo: string; amount: string }>;
  /** Acknowledged payments: id -> amount. */
  payments: Map<number, string>;
  /** Payments answered neither 2xx nor a refusal (their outcome is unknown to the caller). */
  unknownPayments: number;
  signIns: number;
  serverErrors: Reply[];
};

export function newLedger(): Ledger {
  return {
    statuses: new Map(),
    deliveries: new Map(),
    pendingDeliveries: new Map(),
    invoices: new Map(),
    payments: new Map(),
    unknownPayments: 0,
    signIns: 0,
    serverErrors: [],
  };
}

function note(ledger: Ledger, reply: Reply) {
  ledger.statuses.set(reply.status, (ledger.statuses.get(reply.status) ?? 0) + 1);
  if (reply.status >= 500 && reply.status !== 503) ledger.serverErrors.push(reply);
}

async function safe(ledger: Ledger, work: () => Promise<Reply>): Promise<Reply | null> {
  try {
    const reply = await work();
    note(ledger, reply);
    return reply;
  } catch {
    // connection refused/reset by the proxy or app: counted, never a 2xx
    ledger.statuses.set(0, (ledger.statuses.get(0) ?? 0) + 1);
    return null;
  }
}

export type LoadOptions = {
  base: string | (() => string);
  seeded: Seeded;
  /** Operations per virtual user (ignored while `until` is given and false). */
  operations?: number;
  until?: () => boolean;
  ledger?: Ledger;
  pauseMs?: number;
};

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runMixedLoad(options: LoadOptions): Promise<Ledger> {
  const ledger = options.ledger ?? newLedger();
  const base = typeof options.base === "string" ? () => options.base as string : options.base;
  const more = (i: number) => (options.until ? !options.until() : i < (options.operations ?? 10));
  const pauseMs = options.pauseMs ?? 0;
  const { seeded } = options;
  const uninvoiced: number[] = [];
  // Staff still recording: a manager with nothing yet to invoice or pay waits for them rather
  // than spend its turns (on a busy machine the staff's sign-ins can outlast every turn).
  let staffRecording = seeded.staff.length;

  const staffUser = async (email: string, n: number) => {
    try {
      await recordDeliveries(email, n);
    } finally {
      staffRecording--;
    }
  };

  const recordDeliveries = async (email: string, n: number) => {
    const cookie = await signIn(base(), email, seeded.password);
    ledger.signIns++;
    for (let i = 0; more(i); i++) {
      const key = randomUUID();
      const body = {
        agentId: seeded.agentIds[(n + i) % seeded.agentIds.length],
        tons: `${1 + ((n + i) % 9)}.25`,
        location: `Ops yard ${n}`,
      };
      const reply = await safe(ledger, () =>
        request(base(), "/api/deliveries", { method: "POST", cookie, json: body, headers: { "Idempotency-Key": key } }),
      );
      if (reply && (reply.status === 201 || reply.status === 200)) {
        const id = (reply.body as { id: number }).id;
        ledger.deliveries.set(key, id);
        uninvoiced.push(id);
      } else {
        ledger.pendingDeliveries.set(key, { cookie, body });
      }
      if (i % 3 === 2) await safe(ledger, () => request(base(), "/api/deliveries?limit=20", { cookie }));
      if (pauseMs) await pause(pauseMs);
    }
  };

  const manager = async (email: string) => {
    const cookie = await signIn(base(), email, seeded.password);
    ledger.signIns++;
    for (let i = 0; more(i); i++) {
      if (!uninvoiced.length && !ledger.invoices.size && staffRecording > 0) {
        await pause(20);
        i--;
        continue;
      }
      const deliveryId = uninvoiced.shift();
      if (deliveryId !== undefined) {
        const reply = await safe(ledger, () =>
          request(base(), "/api/invoices", { method: "POST", cookie, json: { deliveryId } }),
        );
        if (reply?.status === 201) {
          const invoice = reply.body as { id: number; invoiceNo: string; amount: string };
          ledger.invoices.set(invoice.id, { invoiceNo: invoice.invoiceNo, amount: invoice.amount });
        } else if (reply?.status !== 409) {
          uninvoiced.push(deliveryId); // try again later
        }
      }
      const invoiceIds = [...ledger.invoices.keys()];
      if (invoiceIds.length) {
        const invoiceId = invoiceIds[i % invoiceIds.length];
        const reply = await safe(ledger, () =>
          request(base(), "/api/payments", {
            method: "POST",
            cookie,
            json: { invoiceId, amount: "10000.00" },
            headers: { "Idempotency-Key": randomUUID() },
          }),
        );
        if (reply?.status === 201) {
          const payment = reply.body as { id: number; amount: string };
          ledger.payments.set(payment.id, payment.amount);
        } else if (!reply || reply.status >= 500) {
          ledger.unknownPayments++;
        }
      }
      if (i % 4 === 3) await safe(ledger, () => request(base(), "/api/invoices", { cookie }));
      if (pauseMs) await pause(pauseMs);
    }
  };

  // Sign-ins: each one must give a session that works on the next call.
  const signer = async (email: string) => {
    for (let i = 0; more(i) && i < 3; i++) {
      const reply = await safe(ledger, () =>
        request(base(), "/api/auth/password/login", { method: "POST", json: { email, password: seeded.password } }),
      );
      if (reply?.status === 200) {
        ledger.signIns++;
        const cookie = reply.headers.get("set-cookie")!.split(";")[0];
        await safe(ledger, () => request(base(), "/api/auth/user", { cookie }));
      }
      if (pauseMs) await pause(pauseMs * 3);
    }
  };

  await Promise.all([
    ...seeded.staff.map((email, n) => staffUser(email, n)),
    ...seeded.managers.map((email) => manager(email)),
    signer(seeded.staff[0]),
  ]);
  return ledger;
}

/** Sends every unacknowledged delivery again with its own key until each is acknowledged. */
export async function settlePendingDeliveries(ledger: Ledger, base: string) {
  for (const [key, { cookie, body }] of ledger.pendingDeliveries) {
    for (let attempt = 0; attempt < 40; attempt++) {
      const reply = await safe(ledger, () =>
        request(base, "/api/deliveries", { method: "POST", cookie, json: body, headers: { "Idempotency-Key": key } }),
      );
      if (reply && (reply.status === 200 || reply.status === 201)) {
        ledger.deliveries.set(key, (reply.body as { id: number }).id);
        ledger.pendingDeliveries.delete(key);
        break;
      }
      await pause(250);
    }
  }
}

export function statusSummary(ledger: Ledger) {
  return Object.fromEntries([...ledger.statuses.entries()].sort(([a], [b]) => a - b));
}
