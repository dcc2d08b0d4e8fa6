import * as z from "zod";

const DEV_SECRET = "dev-only-secret-change-me";
const DEV_TOTP_KEY = "dev-only-totp-key-change-me";
// Thirty days: a longer session is a sign-in nobody remembers making.
const MAX_SESSION_MINUTES = 30 * 24 * 60;
// An empty value (as .env.example leaves some) means the default.
const sessionMinutes = (fallback: number) =>
  z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.coerce.number().int().min(5).max(MAX_SESSION_MINUTES).default(fallback),
  );

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().positive().default(3000),
  DATABASE_URL: z.string().optional(),
  PGLITE_DIR: z.string().default("./data/pglite"),
  // Comma-separated so secrets can rotate: the first signs, all verify.
  SESSION_SECRET: z.string().default(DEV_SECRET),
  // Encrypts stored two-factor secrets (app/utils/secret-box.server.ts).
  TOTP_ENCRYPTION_KEY: z.string().min(1).default(DEV_TOTP_KEY),
  // The header a trusted reverse proxy sets with the client address (server/client-address.js).
  TRUSTED_PROXY_HEADER: z.string().optional(),
  LOG_LEVEL: z.string().optional(),
  // Session lifetimes in minutes (docs/decisions/0003): idle, and absolute since sign-in.
  SESSION_IDLE_MINUTES: sessionMinutes(8 * 60),
  SESSION_ABSOLUTE_MINUTES: sessionMinutes(12 * 60),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  OWNER_EMAIL: z.string().optional(),
  DELIVERY_CLIENT_NAME: z.string().default("Kodan"),
  APP_ORIGIN: z.string().optional(),
  APP_TIME_ZONE: z.string().default("Africa/Lagos"),
  // Reminders by e-mail (docs/decisions/1260): the mail server (smtp://user:pass@host:587,
  // smtps://… for TLS) and the sender; both set, or no e-mail at all.
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().optional(),
  // "1": the due reminder e-mails go out by themselves once a day.
  REMINDERS_AUTO_EMAIL: z.string().optional(),
});

type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

/** Environment read once and validated. */
export function env(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(
      `Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  cached = parsed.data;
  if (cached.SESSION_SECRET === DEV_SECRET && cached.NODE_ENV !== "test") {
    console.warn(
      "\n  WARNING: SESSION_SECRET is not set; using the development default.\n" +
        "  Anyone can forge sessions. Set SESSION_SECRET before real use.\n",
    );
  }
  if (cached.TOTP_ENCRYPTION_KEY === DEV_TOTP_KEY && cached.NODE_ENV !== "test") {
    console.warn(
      "\n  WARNING: TOTP_ENCRYPTION_KEY is not set; using the development default.\n" +
        "  Two-factor secrets in the database can be read by anyone with a copy. Set TOTP_ENCRYPTION_KEY before real use.\n",
    );
  }
  return cached;
}

/** For tests: forget the cached environment after changing process.env. */
export function resetEnv() {
  cached = undefined;
}

export function sessionSecrets() {
  return env()
    .SESSION_SECRET.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
