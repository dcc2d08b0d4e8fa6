import { formatDateTime } from "~/utils/dates";

type Sent = { id: number; channel: "whatsapp" | "email"; sentAt: string; level: number; sentBy: string | null };

const CHANNEL = { whatsapp: "WhatsApp", email: "E-mail" } as const;
const levelText = (level: number) =>
  level === 0 ? "on the due date" : level < 0 ? `${-level} days before due` : `${level} days after due`;

/** The reminders sent about an invoice (docs/decisions/1260), newest first. */
export function InvoiceReminders({ reminders }: { reminders: Sent[] }) {
  return (
    <section aria-labelledby="invoice-reminders" className="space-y-2">
      <h2 id="invoice-reminders" className="text-lg font-semibold">
        Reminders
      </h2>
      {reminders.length === 0 ? (
        <p className="page-subtitle">No reminder sent yet.</p>
      ) : (
        <ul className="card divide-y text-sm dark:divide-slate-700">
          {reminders.map((r) => (
            <li key={`${r.id}-${r.level}`} className="flex flex-wrap gap-x-3 px-4 py-2">
              <span>{formatDateTime(r.sentAt)}</span>
              <span>{CHANNEL[r.channel]}</span>
              <span>{levelText(r.level)}</span>
              <span className="text-slate-600 dark:text-slate-300">{r.sentBy ?? "Sent automatically"}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
