// Adds up the vitest and Playwright JSON reports into one closing line, and names the tests that
// failed with the first line of their error: the end of the output is what a CI summary keeps,
// and a failure far above it (the browser step prints everything at once) is otherwise lost.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
/** "file › title: first line of the error", one per failed test. */
const failures = [];
const firstLine = (message) =>
  // Playwright and vitest colour their messages.
  stripVTControlCharacters(String(message ?? ""))
    .split("\n")
    .find((line) => line.trim()) ?? "";

/** Every test of a Playwright suite tree, with the file it is in. */
function* playwrightTests(suite, file = suite.file) {
  for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) yield { file, spec, test };
  for (const child of suite.suites ?? []) yield* playwrightTests(child, child.file ?? file);
}

for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
  const report = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
  if (file === "e2e.json") {
    const s = report.stats ?? {};
    passed += s.expected ?? 0;
    failed += (s.unexpected ?? 0) + (s.flaky ?? 0);
    skipped += s.skipped ?? 0;
    for (const suite of report.suites ?? []) {
      for (const { file: specFile, spec, test } of playwrightTests(suite)) {
        if (test.status !== "unexpected" && test.status !== "flaky") continue;
        const result = test.results?.find((r) => r.status !== "passed" && r.status !== "skipped");
        const error = result?.error?.message ?? result?.errors?.[0]?.message ?? result?.status;
        failures.push(`[${test.projectName}] ${specFile}:${spec.line} › ${spec.title}: ${firstLine(error)}`);
      }
    }
    for (const error of report.errors ?? []) failures.push(`playwright: ${firstLine(error.message)}`);
  } else {
    passed += report.numPassedTests ?? 0;
    failed +=
      (report.numFailedTests ?? 0) +
      (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const suite of report.testResults ?? []) {
      const suiteFile = path.relative(process.cwd(), suite.name ?? "");
      const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failedTests) failures.push(`${suiteFile} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      if (suite.status === "failed" && failedTests.length === 0)
        failures.push(`${suiteFile}: ${firstLine(suite.message)}`);
    }
  }
}
const expected = ["unit.json", "db-pglite.json", "ops.json", "e2e.json"].filter((f) => !existsSync(path.join(dir, f)));
if (expected.length) {
  console.log(`missing reports: ${expected.join(", ")}`);
  failed += expected.length;
}
if (failures.length) {
  console.log("Failed tests:");
  for (const line of failures.slice(0, 20)) console.log(`  ${line.slice(0, 300)}`);
  if (failures.length > 20) console.log(`  ... and ${failures.length - 20} more`);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
