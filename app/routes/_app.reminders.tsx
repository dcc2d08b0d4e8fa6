import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { PageHeader } from "~/components/page-header";
import { useIsPending } from "~/hooks/use-is-pending";
import { dueReminders, emailReminder, recordReminderSent } from "~/models/reminders.server";
import { publicOrigin } from "~/models/share-link.server";
import { requireCapability } from "~/rules/capabilities.server";
import { formatDate } from "~/utils/dates";
import { invariantResponse, readForm } from "~/utils/http.server";
import { mailConfigured } from "~/utils/mailer.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";

// Reminders (docs/decisions/1260): each client with something due today, its one message, and
// the ways to send it: WhatsApp (a form that records the send and goes on to the prefilled chat,
// no JavaScript and no API account needed) and, when SMTP is set up, e-mail.

export const meta: MetaFunction = () => [{ title: "Reminders · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const cursor = new URL(request.url).searchParams.get("after");
  const after = cursor ? (parseId(cursor) ?? 0) : 0;
  const page = await dueReminders(user, { origin: publicOrigin(request), now: new Date(), after });
  return { ...page, email: mailConfigured(), continued: after > 0 };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const formData = await readForm(request);
  const clientId = parseId(formData.get("clientId"));
  invariantResponse(clientId, "Client not found");
  const origin = publicOrigin(request);
  const now = new Date();
  if (formData.get("intent") === "email") {
    const result = await emailReminder(user, { clientId }, { origin, now });
    if (!result.ok) {
      return redirectWithToast("/reminders", {
        title: "E-mail not sent",
        description: result.message,
        variant: "destructive",
      });
    }
    return redirectWithToast("/reminders", {
      title: result.alreadySent ? "Already sent" : "Reminder e-mailed",
    });
  }
  // WhatsApp: the message as it is due now, recorded, then on to the chat.
  const { items } = await dueReminders(user, { origin, now, clientIds: [clientId] });
  const due = items[0];
  if (!due?.whatsappUrl)
    return redirectWithToast("/reminders", {
      title: "Nothing to send",
      description: "This reminder was sent already or has no WhatsApp number.",
    });
  const result = await recordReminderSent(
    user,
    { clientId, channel: "whatsapp", invoiceIds: due.invoices.map((i) => i.id) },
    { origin, now },
  );
  if (!result.ok)
    return redirectWithToast("/reminders", {
      title: "Not recorded",
      description: result.message,
      variant: "destructive",
    });
  if (result.alreadySent) return redirectWithToast("/reminders", { title: "Already sent" });
  return redirect(due.whatsappUrl, 303);
}

export default function Reminders() {
  const { items, nextCursor, email, continued } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <PageHeader
        title="Reminders"
        subtitle="Clients with invoices reaching a reminder level today: one message each, sent once."
      />
      {items.length === 0 ? <p className="card p-4 text-sm">No reminders are due.</p> : null}
      <ul className="space-y-3">
        {items.map((r) => (
          <li key={r.clientId} className="card space-y-2 p-4" aria-labelledby={`reminder-${r.clientId}`}>
            <h2 id={`reminder-${r.clientId}`} className="font-semibold">
              {r.clientName}
            </h2>
            <ul className="text-sm">
              {r.invoices.map((i) => (
                <li key={i.id}>
                  <Link to={`/invoices/${i.id}`} className="underline">
                    Invoice {i.invoiceNo}
                  </Link>
                  : {formatNaira(i.balance)} due {formatDate(i.dueDate)} ({levelWords(i.level)})
                </li>
              ))}
            </ul>
            <details className="text-sm">
              <summary className="cursor-pointer">Message</summary>
              <pre className="mt-1 whitespace-pre-wrap break-words font-sans">{r.message}</pre>
            </details>
            <SendButtons clientId={r.clientId} whatsapp={r.whatsappNumber} email={email ? r.email : null} />
          </li>
        ))}
      </ul>
      {continued || nextCursor ? (
        <nav aria-label="Pages" className="flex gap-2">
          {continued ? (
            <Link to="/reminders" className="btn-ghost btn-sm">
              First
            </Link>
          ) : null}
          {nextCursor ? (
            <Link to={`/reminders?after=${nextCursor}`} className="btn-outline btn-sm">
              More clients
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

const levelWords = (level: number) =>
  level === 0 ? "on the due date" : level < 0 ? `${-level} days before due` : `${level} days after due`;

function SendButtons({
  clientId,
  whatsapp,
  email,
}: {
  clientId: number;
  whatsapp: string | null;
  email: string | null;
}) {
  const pending = useIsPending();
  return (
    <div className="flex flex-wrap items-center gap-2">
      {whatsapp ? (
        <Form method="post" reloadDocument>
          <input type="hidden" name="clientId" value={clientId} />
          <input type="hidden" name="intent" value="whatsapp" />
          <button type="submit" className="btn-primary" disabled={pending}>
            Send on WhatsApp ({whatsapp})
          </button>
        </Form>
      ) : (
        <span className="text-sm text-slate-500">No WhatsApp number</span>
      )}
      {email ? (
        <Form method="post">
          <input type="hidden" name="clientId" value={clientId} />
          <input type="hidden" name="intent" value="email" />
          <button type="submit" className="btn-outline" disabled={pending}>
            Send e-mail ({email})
          </button>
        </Form>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the reminders. Please try again." />;
}
