// After a browser-test run: the server's log (copied by tests/e2e/start-server.ts) must hold
// structured sign-in events and never a password, code, secret, session id or cookie.
// Usage: npx tsx scripts/check-e2e-log.ts [logfile]   (exit 1 on a finding)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { BOOTSTRAP_ADMIN, E2E_PASSWORD, FRESH_ADMINS, e2eLogFile } from "../tests/e2e/users";

const file = process.argv[2] ?? e2eLogFile(process.env.E2E_PORT ?? "3210");
const text = readFileSync(file, "utf8");
const lines = text.split("\n").filter(Boolean);

// Every password the browser tests type, read from their source.
const passwords = new Set<string>([
  E2E_PASSWORD,
  BOOTSTRAP_ADMIN.password,
  ...Object.values(FRESH_ADMINS).map((a) => a.password),
  "e2e-session-secret",
]);
const e2eDir = path.resolve("tests/e2e");
for (const name of readdirSync(e2eDir).filter((n) => n.endsWith(".ts"))) {
  const source = readFileSync(path.join(e2eDir, name), "utf8");
  for (const m of source.matchAll(/password\w*\s*[:=]\s*"([^"]{8,})"/gi)) passwords.add(m[1]);
}

const PATTERNS: [string, RegExp][] = [
  ["session cookie", /(__Host-)?__session=|__Host-session=/],
  ["Set-Cookie header", /set-cookie/i],
  ["password field", /"(password|currentPassword|newPassword|temporaryPassword)"\s*:/],
  ["token or code field", /"(token|code|totpSecret|secret)"\s*:\s*"/],
  ["session id (43 base64url characters)", /(^|[^A-Za-z0-9_-])[A-Za-z0-9_-]{43}([^A-Za-z0-9_-]|$)/],
  ["TOTP secret (32 base32 characters)", /(^|[^A-Z2-7])[A-Z2-7]{32}([^A-Z2-7]|$)/],
];

const findings: string[] = [];
lines.forEach((line, i) => {
  for (const p of passwords)
    if (line.includes(p)) findings.push(`line ${i + 1}: a test password (${p.slice(0, 3)}...)`);
  for (const [label, re] of PATTERNS)
    if (re.test(line)) findings.push(`line ${i + 1}: ${label}: ${line.slice(0, 160)}`);
});

const events = lines.flatMap((l) => {
  try {
    return [JSON.parse(l) as { event?: string }];
  } catch {
    return [];
  }
});
if (!events.some((e) => e.event === "signin.success"))
  findings.push("no structured signin.success event: is the log the e2e server's?");

if (findings.length) {
  console.error(`E2E log ${file}: ${findings.length} finding(s)\n${findings.slice(0, 50).join("\n")}`);
  process.exit(1);
}
console.log(`E2E log ${file}: ${lines.length} lines, ${events.length} JSON events, no secrets found`);
