// The arrows between layers (issue 13, decision 0800): utilities are at the bottom and never
// reach up into domain models or presenters; models never reach up into presenters.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
}

const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);

describe("layers", () => {
  it("nothing in app/utils imports a model or a presenter", () => {
    const offenders = sources("app/utils").flatMap((f) =>
      importsOf(f)
        .filter((i) => /(^~\/|\.\.\/)(models|presenters)\//.test(i))
        .map((i) => `${f}: ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it("nothing in app/models or app/rules imports a presenter", () => {
    const files = [...sources("app/models"), ...sources("app/rules")];
    const offenders = files.flatMap((f) =>
      importsOf(f)
        .filter((i) => /presenters\//.test(i))
        .map((i) => `${f}: ${i}`),
    );
    expect(offenders).toEqual([]);
  });
});
