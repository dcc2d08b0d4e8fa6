// New Delivery's submission with JavaScript: store on the phone first, then send
// (docs/decisions/1100-offline-capture.md). Without JavaScript none of this runs and the
// form is a plain post, as before.
import { Link, useNavigate, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useRootData } from "~/root";
import { todayIn } from "~/utils/dates";
import { formatAmount } from "~/utils/money";
import { flush, isKeyUsed, newKey, putEntry, removeEntry, scheduleRetry, type OutboxEntry } from "~/utils/outbox";
import { useOutbox } from "./outbox-badge";
import { showToast } from "./toaster";

const STALE_AFTER_MS = 2 * 60 * 1000;

type Errors = { message?: string; fieldErrors: Record<string, string[]> };
type RemixRouter = { navigate(to: string): Promise<void>; revalidate(): void };

export function useOutboxForm({
  serverKey,
  today,
  timeZone,
  loadedAt,
  returnTo,
  agents,
}: {
  serverKey: string;
  today: string;
  timeZone: string;
  loadedAt: number;
  returnTo: string;
  agents: { id: number; name: string }[];
}) {
  const userId = useRootData()?.user?.id ?? "";
  const outbox = useOutbox(userId);
  const navigate = useNavigate();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const [key, setKey] = useState(serverKey);
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<Errors | null>(null);
  const [saved, setSaved] = useState(false);
  const [correcting, setCorrecting] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [online, setOnline] = useState(true);
  const [stale, setStale] = useState(false);

  useEffect(() => {
    // A copy of the page from the phone's cache carries a key already used: make a new one.
    if (isKeyUsed(serverKey)) setKey(newKey());
    else setKey(serverKey);
    freshDate();
  }, [serverKey]);

  useEffect(() => {
    // A copy from the phone's cache (offline, or a network too slow to wait for) says its age.
    setStale(Date.now() - loadedAt > STALE_AFTER_MS);
  }, [loadedAt]);

  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);

  /** The date field shows today in the business time zone, even on a page cached yesterday. */
  function freshDate() {
    const input = formRef.current?.elements.namedItem("date") as HTMLInputElement | null;
    const now = todayIn(timeZone);
    if (input && (input.value === today || !input.value) && now !== today) input.value = now;
  }

  function fill(fields: Record<string, string>) {
    for (const element of Array.from(formRef.current?.elements ?? [])) {
      if (!(
        element instanceof HTMLInputElement ||
        element instanceof HTMLSelectElement ||
        element instanceof HTMLTextAreaElement
      ))
        continue;
      if (!element.name || element.type === "hidden" || element.disabled) continue;
      element.value = fields[element.name] ?? "";
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!userId || typeof indexedDB === "undefined") return; // plain post through Remix
    event.preventDefault();
    if (sending) return;
    const form = event.currentTarget;
    const fields: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) {
      if (typeof value === "string" && name !== "idempotencyKey" && name !== "returnTo") fields[name] = value;
    }
    const entry: OutboxEntry = { key, userId, createdAt: Date.now(), fields, state: "waiting", attempts: 0 };
    setSending(true);
    setSaved(false);
    try {
      await putEntry(entry);
      if (correcting) await removeEntry(correcting);
    } catch {
      // No storage on this phone (private mode): the plain post, under the same key.
      setSending(false);
      submit(form);
      return;
    }
    setCorrecting(null);
    const report = await flush(userId).catch(() => ({ outcomes: new Map(), retry: true }));
    const outcome = report.outcomes.get(entry.key);
    setSending(false);
    if (outcome?.kind === "sent") {
      showToast({ title: "Delivery Recorded", description: `${formatAmount(outcome.tons)} tons added successfully` });
      const router = (window as unknown as { __remixRouter?: RemixRouter }).__remixRouter;
      if (!router) return navigate(returnTo);
      await router.navigate(returnTo);
      // The list this dialog sits on was loaded before the delivery existed.
      if (returnTo.startsWith("/deliveries")) router.revalidate();
      return;
    }
    if (outcome?.kind === "attention") {
      // The person is right here: the answer shows on the form, as after a plain post, and
      // the fields keep what was typed.
      await removeEntry(entry.key);
      setKey(newKey());
      setErrors({ message: outcome.message, fieldErrors: outcome.fieldErrors });
      return;
    }
    // Kept on the phone (no signal, server away, session ended): ready for the next one.
    form.reset();
    freshDate();
    setKey(newKey());
    setErrors(null);
    setSaved(true);
    if (report.retry) scheduleRetry(userId);
    (form.elements.namedItem("agentId") as HTMLSelectElement | null)?.focus();
  }

  function correct(entry: OutboxEntry) {
    fill(entry.fields);
    setCorrecting(entry.key);
    setKey(newKey());
    setSaved(false);
    setErrors({ message: entry.message, fieldErrors: entry.fieldErrors ?? {} });
    (formRef.current?.elements.namedItem("agentId") as HTMLSelectElement | null)?.focus();
  }

  const agentName = (id: string | undefined) =>
    agents.find((a) => String(a.id) === id)?.name ?? (id ? `Agent #${id}` : "No agent");
  const count = outbox.entries.length;

  let panel: ReactNode = null;
  if (count || outbox.signInNeeded || !online || stale) {
    panel = (
      <section
        aria-labelledby="outbox-title"
        data-testid="outbox"
        className="mb-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
      >
        {!online || stale ? (
          <p data-testid="offline-age">
            {online ? "" : "No connection. "}Agents and client as of{" "}
            {new Date(loadedAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })} ({age(loadedAt)}).
          </p>
        ) : null}
        {count ? (
          <h3 id="outbox-title" className="font-semibold">
            On this phone: {outbox.waiting.length} waiting to send
            {outbox.attention.length
              ? `, ${outbox.attention.length} ${outbox.attention.length === 1 ? "needs" : "need"} attention`
              : ""}
          </h3>
        ) : (
          <h3 id="outbox-title" className="sr-only">
            This phone
          </h3>
        )}
        {outbox.signInNeeded && outbox.waiting.length ? (
          <p role="alert" className="font-medium">
            Your session has ended.{" "}
            <Link to="/login?dialog=email&redirectTo=%2Fdeliveries%2Fnew" reloadDocument className="underline">
              Sign in
            </Link>{" "}
            to send them; they stay on this phone until then.
          </p>
        ) : null}
        {count ? (
          <ul className="divide-y divide-amber-200 dark:divide-amber-900">
            {outbox.entries.map((entry) => (
              <li key={entry.key} data-testid="outbox-entry" data-state={entry.state} className="py-2">
                <p className="break-words">
                  {entry.fields.date} · {agentName(entry.fields.agentId)} · {entry.fields.tons} t ·{" "}
                  {entry.fields.location}
                </p>
                {entry.state === "waiting" ? (
                  <p className="text-xs">Waiting to send</p>
                ) : (
                  <div className="mt-1 space-y-1">
                    <p className="font-medium text-red-700 dark:text-red-300">Needs attention: {entry.message}</p>
                    <div className="flex flex-wrap gap-2">
                      <button type="button" className="btn-outline" onClick={() => correct(entry)}>
                        Correct and resend
                      </button>
                      {confirming === entry.key ? (
                        <>
                          <button
                            type="button"
                            className="btn-destructive"
                            onClick={() => void removeEntry(entry.key).then(() => setConfirming(null))}
                          >
                            Discard for good
                          </button>
                          <button type="button" className="btn-ghost" onClick={() => setConfirming(null)}>
                            Keep
                          </button>
                        </>
                      ) : (
                        <button type="button" className="btn-ghost" onClick={() => setConfirming(entry.key)}>
                          Discard
                        </button>
                      )}
                    </div>
                  </div>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    );
  }

  const notice = saved ? (
    <p
      role="status"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      Saved on this phone, waiting to send
    </p>
  ) : correcting ? (
    <p className="text-sm">Correcting a delivery from this phone: sending replaces the one that needs attention.</p>
  ) : null;

  return { key, sending, errors, panel, notice, formRef, onSubmit };
}

function age(at: number) {
  const minutes = Math.max(0, Math.round((Date.now() - at) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
