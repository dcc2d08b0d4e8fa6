// A reminder as an e-mail (docs/decisions/1260): the same words as the WhatsApp message in text,
// and an HTML part with the invoices in a table and the statement link as a link.
import type { DueReminder } from "./reminders.server";
import { dueWords } from "~/rules/reminders";
import { formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { html } from "~/utils/html";
import { formatNaira } from "~/utils/money";

export function reminderEmail(reminder: DueReminder, businessName: string | null, now = new Date()) {
  const today = todayIn(env().APP_TIME_ZONE, now);
  const from = businessName?.trim() || "PKS";
  const rows = reminder.invoices.map(
    (i) =>
      html`<tr>
        <td>${i.invoiceNo}</td>
        <td style="text-align:right">${formatNaira(i.balance)}</td>
        <td>${formatDate(i.dueDate)}</td>
        <td>${dueWords(i.dueDate, today)}</td>
      </tr>`,
  );
  const body = html`<!DOCTYPE html>
    <html lang="en">
      <body>
        <p>Hello ${reminder.clientName},</p>
        <p>This is a payment reminder from ${from}.</p>
        <table cellpadding="4" style="border-collapse:collapse">
          <thead>
            <tr>
              <th align="left">Invoice</th>
              <th align="right">Balance</th>
              <th align="left">Due</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>
        <p><a href="${reminder.statementUrl}">View your statement</a></p>
        <p>Thank you.</p>
      </body>
    </html>`;
  return {
    subject: `Payment reminder from ${from}`,
    text: reminder.message,
    html: String(body),
  };
}
