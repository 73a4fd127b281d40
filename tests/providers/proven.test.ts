/**
 * "Proven with" means something: a provider that names the CLI version it was proven with has
 * fixtures recorded from exactly that version (each fixture's meta says so), the version pinned
 * as a dev dependency (what `npm ci` installs and the e2e tests run), and an end-to-end test file
 * named after it that skips nothing. `npm run check:clis` tries newer releases.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROVIDERS, parseVersion } from "../../providers/index.ts";
import { FIXTURES, fixtureCases } from "./fixture-helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
const e2e = readdirSync(join(ROOT, "tests", "e2e"));

describe("the version each provider was proven with", () => {
  for (const p of PROVIDERS.filter((x) => x.provenWith)) {
    test(`${p.name}: fixtures recorded from ${p.provenWith}, pinned, and an e2e test named after it`, () => {
      const cases = fixtureCases(p.name);
      expect(cases).toContain("success");
      for (const name of cases) {
        const meta = JSON.parse(readFileSync(join(FIXTURES, p.name, `${name}.meta.json`), "utf8")) as { recordedWith?: string };
        expect(parseVersion(meta.recordedWith ?? ""), `${p.name}/${name}`).toBe(p.provenWith);
      }
      expect(p.npmPackage).toBeDefined();
      expect(pkg.devDependencies[p.npmPackage!]).toBe(p.provenWith);
      // the proving loop (what `npm run check:clis` runs against newer releases): never skipped
      expect(e2e).toContain(`${p.name}.test.ts`);
      expect(readFileSync(join(ROOT, "tests", "e2e", `${p.name}.test.ts`), "utf8")).not.toMatch(/\.(skip|skipIf|todo|if)\(/);
    });
  }

  test("only a CLI troupe cannot install here (Aider, from PyPI) or the generic shell command is unproven", () => {
    expect(PROVIDERS.filter((p) => !p.provenWith).map((p) => p.name)).toEqual(["aider", "generic"]);
  });
});
