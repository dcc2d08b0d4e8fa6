// New Delivery's submission with JavaScript: store on the phone first, then send
// (docs/decisions/1100-offline-capture.md). Without JavaScript none of this runs and the
// form is a plain post, as before.
import { Link, useNavigate, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useRootData } from "~/root";
import { formatDateTime, todayIn } from "~/utils/dates";
import { formatAmount } from "~/utils/money";
import {
  newKey,
  recordEntry,
  removeEntry,
  scheduleRetry,
  type OutboxEntry,
  type RecordReport,
  type SignInReason,
} from "~/utils/outbox";
import { TICKET_PHOTO } from "~/utils/outbox-protocol";
import { useOutbox } from "./outbox-badge";
import { showToast } from "./toaster";

const STALE_AFTER_MS = 2 * 60 * 1000;
const SIGN_IN = "/login?dialog=email&redirectTo=%2Fdeliveries%2Fnew";

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
  // The default date the field shows; any other value is the person's and stays.
  const shownDate = useRef(today);
  // The element (id) to focus once the next render is on screen: after Discard, Keep, Discard for good.
  const focusNext = useRef("");
  // The loader's key serves the plain post without JavaScript. With it, the page makes its own:
  // a page opened from the phone's saved copy carries the same loader key in every tab.
  const [key, setKey] = useState(serverKey);
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<Errors | null>(null);
  // The key of the entry just saved on the phone: its line shows until that entry is sent.
  const [saved, setSaved] = useState("");
  const [correcting, setCorrecting] = useState<string | null>(null);
  // The photo of the entry being corrected: it goes again unless another is chosen.
  const keptPhoto = useRef<string>();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [online, setOnline] = useState(true);
  const [stale, setStale] = useState(false);

  useEffect(() => {
    setKey(newKey());
    freshDate();
  }, [serverKey]);

  useEffect(() => {
    // A copy from the phone's cache (offline, or a network too slow to wait for) says its age.
    setStale(Date.now() - loadedAt > STALE_AFTER_MS);
  }, [loadedAt]);

  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    // A form left open past midnight shows the new day when the phone is looked at again.
    const visible = () => {
      if (document.visibilityState === "visible") freshDate();
    };
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    document.addEventListener("visibilitychange", visible);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
      document.removeEventListener("visibilitychange", visible);
    };
  }, []);

  useEffect(() => {
    if (focusNext.current) document.getElementById(focusNext.current)?.focus();
    focusNext.current = "";
  });

  const agentSelect = () => formRef.current?.elements.namedItem("agentId") as HTMLSelectElement | null;

  /** The default date is today in the business time zone, even on a page cached yesterday. */
  function freshDate() {
    const input = formRef.current?.elements.namedItem("date") as HTMLInputElement | null;
    if (input?.value === shownDate.current) input.value = shownDate.current = todayIn(timeZone);
  }

  function fill(fields: Record<string, string>) {
    for (const element of Array.from(formRef.current?.elements ?? []) as HTMLInputElement[]) {
      if (element.name && !/hidden|file/.test(element.type) && !element.disabled)
        element.value = fields[element.name] ?? "";
    }
    shownDate.current = ""; // the entry's date is the person's
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
    const file = (form.elements.namedItem(TICKET_PHOTO) as HTMLInputElement | null)?.files?.[0];
    const entry: OutboxEntry = { key, userId, createdAt: Date.now(), fields, state: "waiting", attempts: 0 };
    const replacing = correcting;
    setSending(true);
    setSaved("");
    let report: RecordReport;
    try {
      // The ticket's photo, made smaller on the phone by code loaded only now (decision 1220); a
      // correction keeps the photo of the entry it corrects unless another is chosen.
      const photo = file ? await (await import("~/utils/photo-scale")).scaledPhoto(file) : keptPhoto.current;
      if (photo) fields[TICKET_PHOTO] = photo;
      report = await recordEntry(entry, replacing, () => {
        // On the phone from now on, whatever the send does: the person is told at once.
        setKey(newKey());
        setSaved(entry.key);
      });
    } catch {
      // No storage on this phone (private mode), or the photo's code could not load: the plain
      // post, under the same key.
      setSending(false);
      submit(form);
      return;
    }
    const { outcome } = report;
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
      // The person is right here: the answer shows on the form, as after a plain post, and the
      // fields keep what was typed. A correction refused again also stays on the phone, back
      // in "needs attention"; sending from the form replaces it again.
      setSaved("");
      setCorrecting(replacing ? report.entry.key : null);
      setErrors({ message: outcome.message, fieldErrors: outcome.fieldErrors });
      return;
    }
    // Kept on the phone (no signal, server away, session ended): ready for the next one.
    form.reset();
    keptPhoto.current = undefined;
    shownDate.current = today; // what reset puts back
    freshDate();
    setCorrecting(null);
    setErrors(null);
    if (report.retry) scheduleRetry(userId);
    agentSelect()?.focus();
  }

  function correct(entry: OutboxEntry) {
    fill(entry.fields);
    keptPhoto.current = entry.fields[TICKET_PHOTO];
    setCorrecting(entry.key);
    setKey(newKey());
    setSaved("");
    setErrors({ message: entry.message, fieldErrors: entry.fieldErrors ?? {} });
    agentSelect()?.focus();
  }

  function confirm(entryKey: string | null, focus: string) {
    focusNext.current = focus;
    setConfirming(entryKey);
  }

  async function discard(entryKey: string) {
    await removeEntry(entryKey);
    if (correcting === entryKey) setCorrecting(null);
    // The list's heading while deliveries remain, else the form.
    confirm(null, count > 1 ? "outbox-title" : "agentId");
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
            {online ? "" : "No connection. "}Agents and client as of {formatDateTime(localTime(loadedAt))} (
            {age(loadedAt)}).
          </p>
        ) : null}
        {count ? (
          <h3 id="outbox-title" tabIndex={-1} className="font-semibold">
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
        {outbox.signInNeeded && outbox.waiting.length ? <SignInNotice reason={outbox.signInNeeded} /> : null}
        {count ? (
          <ul className="divide-y divide-amber-200 dark:divide-amber-900">
            {outbox.entries.map((entry) => (
              <li key={entry.key} data-testid="outbox-entry" data-state={entry.state} className="py-2">
                <p className="break-words">
                  {entry.fields.date} · {agentName(entry.fields.agentId)} ·{" "}
                  {entry.fields.tons ? `${entry.fields.tons} t` : `ticket ${entry.fields["loadingTicket.ticketNo"]}`} ·{" "}
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
                            id="discard-for-good"
                            className="btn-destructive"
                            onClick={() => void discard(entry.key)}
                          >
                            Discard for good
                          </button>
                          <button
                            type="button"
                            className="btn-ghost"
                            onClick={() => confirm(null, `discard-${entry.key}`)}
                          >
                            Keep
                          </button>
                        </>
                      ) : (
                        <button
                          type="button"
                          id={`discard-${entry.key}`}
                          className="btn-ghost"
                          onClick={() => confirm(entry.key, "discard-for-good")}
                        >
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

  // Always on the page, so that a screen reader announces the text when it appears; a region
  // inserted together with its text is often not announced.
  const notice = (
    <>
      <div aria-live="polite" data-testid="outbox-status" className="empty:!mt-0">
        {outbox.waiting.some((e) => e.key === saved) ? (
          <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
            Saved on this phone, waiting to send
          </p>
        ) : null}
      </div>
      {correcting ? (
        <p className="text-sm">Correcting a delivery from this phone: sending replaces the one that needs attention.</p>
      ) : null}
    </>
  );

  return { key, sending, errors, panel, notice, formRef, onSubmit };
}

/** Why the waiting deliveries do not go now, and what the person can do about it. */
function SignInNotice({ reason }: { reason: SignInReason }) {
  const password = reason === "password";
  return (
    <p role="alert" className="font-medium">
      {password ? "You must change your password first." : "Your session has ended."}{" "}
      {/* Sign-in sends a person who must change the password on to that page. */}
      <Link to={SIGN_IN} reloadDocument className="underline">
        {password ? "Finish signing in" : "Sign in"}
      </Link>{" "}
      to send them; they stay on this phone until then.
    </p>
  );
}

/** The phone's own clock at `at`, as "yyyy-MM-ddTHH:mm" with no zone, for `formatDateTime`. */
function localTime(at: number) {
  return new Date(at - new Date(at).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function age(at: number) {
  const minutes = Math.max(0, Math.round((Date.now() - at) / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}
