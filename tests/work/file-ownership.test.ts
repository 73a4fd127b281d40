import { expect, test } from "bun:test";
import { FileOwnership, globsMeet, type Owner } from "../../src/work/file-ownership.ts";

test("two globs meet when one file could be named by both", () => {
  const meet: [string, string][] = [
    ["src/api.ts", "src/api.ts"],
    ["src/**", "src/api.ts"],
    ["src/*.ts", "src/api.ts"],
    ["src", "src/api.ts"], // a plain path is a folder too
    ["src/a*.ts", "src/*b.ts"], // src/ab.ts: the folders hold each other, the extensions agree
    ["**/*.ts", "lib/x.ts"],
    ["src/**/*.{ts,tsx}", "src/ui/app.tsx"],
    ["src/*.{ts,md}", "src/*.md"], // braces fix no single extension: kept apart, to be safe
  ];
  const apart: [string, string][] = [
    ["src/a.ts", "src/b.ts"],
    ["src/a.ts", "src/a.tsx"],
    ["src/ui/**", "src/api/**"],
    ["src/*.ts", "src/*.md"],
    ["docs/**", "src/**"],
    ["srcx/**", "src/**"], // whole segments, not prefixes of names
  ];
  for (const [a, b] of meet) expect([a, b, globsMeet(a, b), globsMeet(b, a)]).toEqual([a, b, true, true]);
  for (const [a, b] of apart) expect([a, b, globsMeet(a, b), globsMeet(b, a)]).toEqual([a, b, false, false]);
});

test("what one task holds that another needs: a glob of either, the rest of a phase, or nothing", () => {
  const t = (id: string, phaseId: string, files: string[] | null): Owner => ({ id, slug: id, phaseId, files });
  const api = t("api", "p", ["src/api.ts"]);
  const ui = t("ui", "p", ["src/ui/**"]);
  const restP = t("rest-p", "p", null);
  const docs = t("docs", "q", ["docs/**", "src/api.ts"]);
  const restQ = t("rest-q", "q", null);
  const o = new FileOwnership([api, ui, restP, docs, restQ]);
  expect(o.clash(api, docs)).toBe("src/api.ts");
  expect(o.clash(api, ui)).toBeNull();
  expect(o.clash(api, api)).toBeNull();
  // the rest of p holds what p's tasks do not list: not src/api.ts, but docs/** (listed in q only)
  expect(o.clash(restP, api)).toBeNull();
  expect(o.clash(restP, docs)).toBe("docs/**");
  expect(o.clash(docs, restP)).toBe("docs/**");
  // q lists docs/** and src/api.ts; the rest of q does not hold them, but holds src/ui/**
  expect(o.clash(restQ, docs)).toBeNull();
  expect(o.clash(restQ, ui)).toBe("src/ui/**");
  expect(o.clash(restP, restQ)).toBeNull();
  // `[]`: it owns none
  expect(o.clash(t("none", "p", []), api)).toBeNull();
});
