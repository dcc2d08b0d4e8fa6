// Every HTML action answers its form through Conform (docs/decisions/0820-conform-form-pattern.md):
// it parses with `parseWithZod` and replies with `submission.reply()` (through
// utils/form-reply.server.ts); none builds its own `fieldErrors` object. The /api JSON twins
// (app/routes/api.*.ts) keep their JSON shapes and are not checked here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROUTES = path.resolve(__dirname, "../../routes");

/** Actions that read a body but are not forms with fields to answer, each with its reason. */
const NOT_A_FORM: Record<string, string> = {
  "resources.sidebar.tsx": "a preference toggle (collapsed or not); answers with a redirect",
  "resources.theme.tsx": "a preference toggle (light or dark); answers with a redirect",
  "_app.settings.users.$id.status.tsx": "a freeze/unfreeze button; the answer is a toast",
  "_app.settings.role.tsx": "the role switcher's radio buttons; the answer is a redirect or JSON for the fetcher",
  "_app.reconciliation.tsx": "the month's Create Invoices button (no fields); the answer is a toast",
  "_app.settings.users.bulk.tsx": "checkbox selections; the answer is a toast",
  "_app.reminders.tsx": "a reminder's Send buttons (no fields); the answer is a toast or the WhatsApp chat",
};

/** The text of `export async function action(...) { ... }`, or null. */
export function actionBody(source: string): string | null {
  const start = source.search(/export (async )?function action\b/);
  if (start < 0) return null;
  const end = source.indexOf("\n}\n", start);
  return source.slice(start, end < 0 ? undefined : end + 2);
}

/** What is wrong with one route's action, if anything. */
export function problemsOf(source: string): string[] {
  const body = actionBody(source);
  if (!body) return [];
  const problems: string[] = [];
  if (/\bfieldErrors\b/.test(body)) problems.push("builds its own fieldErrors (use replyInvalid / replyRefused)");
  if (/\.formData\(\)/.test(body))
    problems.push("reads the body with formData() (use readForm: never a 500 for a bad body)");
  if (/\breadForm\(/.test(body) && !/\bparseWithZod\(/.test(body)) problems.push("reads a form without parseWithZod");
  return problems;
}

describe("forms on Conform", () => {
  const files = readdirSync(ROUTES).filter((f) => f.endsWith(".tsx"));

  it("finds the route files", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  for (const file of files) {
    it(`${file}: its action answers through Conform`, () => {
      const problems = problemsOf(readFileSync(path.join(ROUTES, file), "utf8"));
      if (NOT_A_FORM[file]) {
        // Only the form-parsing rule is waived; a hand-built fieldErrors is never allowed.
        expect(problems.filter((p) => p.includes("fieldErrors"))).toEqual([]);
      } else {
        expect(problems).toEqual([]);
      }
    });
  }

  it("every exemption names a route that still exists", () => {
    for (const file of Object.keys(NOT_A_FORM)) expect(files).toContain(file);
  });

  it("the check catches a hand-built fieldErrors object, a form read without Conform and a raw formData()", () => {
    const handRolled = `export async function action({ request }) {
  const form = Object.fromEntries(await readForm(request));
  return data({ message: "x", fieldErrors: { name: ["Name is required"] } }, { status: 400 });
}
`;
    expect(problemsOf(handRolled)).toEqual([
      "builds its own fieldErrors (use replyInvalid / replyRefused)",
      "reads a form without parseWithZod",
    ]);
    expect(
      problemsOf("export async function action({ request }) {\n  parseWithZod(await request.formData());\n}\n"),
    ).toEqual(["reads the body with formData() (use readForm: never a 500 for a bad body)"]);
    const onConform = `export async function action({ request }) {
  const submission = parseWithZod(await readForm(request), { schema: S });
  if (submission.status !== "success") return replyInvalid(submission);
}
`;
    expect(problemsOf(onConform)).toEqual([]);
  });
});

// A JSON or text body posted to a page, or a multipart body cut short, made request.formData()
// throw: a 500 for a client's mistake. Bodies are read through readForm, readJsonBody
// (utils/http.server.ts) and readUploadForm (utils/upload.server.ts); only those, the 503
// guard's read of a copy (which catches), and the money dialogs' clientAction (in the browser,
// a copy of the form it is about to send: utils/unanswered.ts) may read a request body themselves.
const READS_A_BODY =
  /\b(request|req)\s*(\.\s*clone\(\)\s*)?\.\s*(formData|text|json|arrayBuffer|blob)\(\)|\bunstable_parseMultipartFormData\(/;

describe("request bodies are read through the helpers", () => {
  const APP = path.resolve(__dirname, "../..");
  const ALLOWED = new Set([
    "utils/http.server.ts",
    "utils/unavailable.server.ts",
    "utils/upload.server.ts",
    "utils/unanswered.ts",
  ]);
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    });
  const files = sources(APP);

  it("finds the server files, the helpers among them", () => {
    expect(files.length).toBeGreaterThan(100);
    // The 503 guard reads its copy under another name; the two helpers must match.
    for (const file of ["utils/http.server.ts", "utils/upload.server.ts"]) {
      expect(READS_A_BODY.test(readFileSync(path.join(APP, file), "utf8")), file).toBe(true);
    }
  });

  it("no other file reads a request body itself", () => {
    const offenders = files
      .filter((file) => !ALLOWED.has(path.relative(APP, file)))
      .filter((file) => READS_A_BODY.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(APP, file));
    expect(offenders).toEqual([]);
  });

  it("the check sees the ways a body is read, split over lines too", () => {
    for (const read of [
      "await request.formData()",
      "await request\n    .clone()\n    .formData()",
      "await req.json()",
      "await request.text()",
      "await unstable_parseMultipartFormData(request, handler)",
    ]) {
      expect(READS_A_BODY.test(read), read).toBe(true);
    }
    expect(READS_A_BODY.test("await readForm(request)")).toBe(false);
    expect(READS_A_BODY.test("const formData = new FormData(form)")).toBe(false);
  });
});
