// A downloaded PDF's text, read back with pdftotext (poppler-utils), for the browser tests.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export function pdfToText(bytes: Buffer): string {
  if (bytes.subarray(0, 5).toString() !== "%PDF-") throw new Error("not a PDF");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "e2e-pdf-")), "document.pdf");
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}
