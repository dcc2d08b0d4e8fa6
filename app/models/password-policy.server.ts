// What a new password must be (docs/decisions/0600-passwords-throttle-and-logs.md): at least 8
// characters (spec), at most 72 bytes of UTF-8 (bcrypt ignores the rest), not the e-mail or
// its name part, and not on the common-password list of @zxcvbn-ts/language-common (about
// 49,000 passwords seen in breaches). No composition rules. The list is loaded on the server
// only, the first time a password is checked.
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT } from "~/schemas/auth";

export { PASSWORD_MAX_BYTES };
export const PASSWORD_TOO_LONG = `Password too long: use at most ${PASSWORD_MAX_BYTES} bytes (${PASSWORD_MAX_BYTES} plain letters or digits; accented letters and emoji count double or more)`;
export const PASSWORD_TOO_COMMON =
  "This password is too common: it is on a list of passwords that attackers try first. Choose a less predictable one, such as a few unrelated words.";
export const PASSWORD_IS_EMAIL = "The password must not be your e-mail address or its name part";

let common: Promise<Set<string>> | undefined;

function commonPasswords() {
  common ??= import("@zxcvbn-ts/language-common").then(
    (m) => new Set(m.dictionary["passwords-common"].map((p) => p.toLowerCase())),
  );
  return common;
}

const utf8Length = (value: string) => Buffer.byteLength(value, "utf8");

/** Why `password` may not be used as a new password for `email`, or null when it may. */
export async function passwordProblem(password: string, email?: string | null): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT;
  if (utf8Length(password) > PASSWORD_MAX_BYTES) return PASSWORD_TOO_LONG;
  const lower = password.trim().toLowerCase();
  if (email) {
    const address = email.trim().toLowerCase();
    const namePart = address.split("@")[0];
    if (lower === address || lower === namePart) return PASSWORD_IS_EMAIL;
  }
  if ((await commonPasswords()).has(lower)) return PASSWORD_TOO_COMMON;
  return null;
}
