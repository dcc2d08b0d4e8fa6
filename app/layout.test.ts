// The arrows between layers (decisions 0800 and 0805): utilities are at the bottom and never
// reach up into domain models or presenters; models never reach up into presenters; the
// commands (app/services) sit above the models and nothing below calls them. The presenters
// (papers and exports) and the components (pages) are side by side: what both need, such as the
// words a money line is shown with (app/utils/money-line-words.ts), lives below them both.
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

  it("nothing below the commands (models, rules, schemas, utils) imports one (decision 0805)", () => {
    const files = ["app/models", "app/rules", "app/schemas", "app/utils"].flatMap(sources);
    const offenders = files.flatMap((f) =>
      importsOf(f)
        .filter((i) => /(^~\/|\.\.\/)services\//.test(i))
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

  it("nothing in app/presenters imports a component", () => {
    const offenders = sources("app/presenters").flatMap((f) =>
      importsOf(f)
        .filter((i) => /(^~\/|\.\.\/)components\//.test(i))
        .map((i) => `${f}: ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the words of money lines read only other utilities", () => {
    const offenders = importsOf("app/utils/money-line-words.ts").filter((i) => !/^~\/utils\//.test(i));
    expect(offenders).toEqual([]);
  });
});
