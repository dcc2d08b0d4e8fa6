// E-mail (docs/decisions/1260): nodemailer over SMTP, configured by SMTP_URL and MAIL_FROM. Without
// both, nothing offers e-mail and a call that asks for it is a 503. Waits are short and bounded:
// a reminder's send happens inside the transaction that records it (so a failed send records
// nothing), which must end well inside PostgreSQL's idle-in-transaction timeout (decision 0700).
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "./env.server";

export const SMTP_CONNECT_TIMEOUT_MS = 3_000;
export const SMTP_SOCKET_TIMEOUT_MS = 5_000;
/** What a caller is told to wait when the mail server is away. */
export const MAIL_RETRY_AFTER_SECONDS = 300;

export type Mail = { to: string; subject: string; text: string; html: string };
export type Mailer = (mail: Mail) => Promise<void>;

export function mailConfigured(): boolean {
  const { SMTP_URL, MAIL_FROM } = env();
  return !!SMTP_URL?.trim() && !!MAIL_FROM?.trim();
}

let cached: { url: string; transport: Transporter } | null = null;

function transport(url: string): Transporter {
  if (cached?.url === url) return cached.transport;
  const created = nodemailer.createTransport({
    url,
    connectionTimeout: SMTP_CONNECT_TIMEOUT_MS,
    greetingTimeout: SMTP_CONNECT_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
  });
  cached = { url, transport: created };
  return created;
}

/** Sends one message; throws when the server refuses it or cannot be reached. */
export const sendMail: Mailer = async (mail) => {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL || !MAIL_FROM) throw new Error("SMTP is not configured");
  await transport(SMTP_URL).sendMail({ from: MAIL_FROM, ...mail });
};
