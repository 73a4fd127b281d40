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
import { supportOf } from "../../providers/support.ts";
import { FIXTURES, fixtureCases } from "./fixture-helpers.ts";
import { e2eFilesOf } from "../../scripts/lib/e2e-files.ts";

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

/**
 * Every "yes" of `troupe providers --json` is proven by an e2e test of that provider with its real
 * CLI: a file of tests/e2e named after it (`gemini.test.ts`, `mcp-gemini.test.ts`,
 * `claude-live.test.ts`) holds what proves it, or it runs the ACP contract
 * (tests/support/acp-contract.ts), which proves ask, live input, MCP and resume, and cost and plan where it says so.
 */
describe("the capability matrix", () => {
  const CONTRACT = readFileSync(join(ROOT, "tests", "support", "acp-contract.ts"), "utf8");
  const filesOf = (name: string) => e2eFilesOf(name, e2e, PROVIDERS.map((p) => p.name));
  const proof: Record<"ask" | "liveInput" | "mcp" | "resume" | "cost" | "plan", RegExp> = {
    ask: /"--permissions", "ask"/,
    liveInput: /\["send", |"send-keys".*\bm\b|sb\.run\(\["send"/,
    mcp: /spawn_agent|handoff/,
    resume: /proveLoop|\["resume", /,
    cost: /costUsd\)?\.toBeGreaterThan\(0\)/,
    plan: /\.plan\?\.map\(/,
  };
  /** Claimed without an e2e that shows it (found by this test): each is to be proven or withdrawn, and the list shrinks with it. */
  const UNPROVEN: Record<string, string[]> = {};
  for (const p of PROVIDERS.filter((x) => x.provenWith)) {
    test(`${p.name}: each capability it claims has its e2e${UNPROVEN[p.name] ? ` (not yet: ${UNPROVEN[p.name]!.join(", ")})` : ""}`, () => {
      const texts = filesOf(p.name).map((f) => readFileSync(join(ROOT, "tests", "e2e", f), "utf8"));
      const contract = texts.find((t) => t.includes("acpProviderContract("));
      const proven = (cap: keyof typeof proof) =>
        texts.some((t) => proof[cap].test(t)) || (contract !== undefined && proof[cap].test(CONTRACT) && (cap !== "cost" || /reportsCost: true/.test(contract)) && (cap !== "plan" || /reportsPlan: true/.test(contract)));
      const s = supportOf(p);
      const claimed = { ask: s.ask, liveInput: s.liveInput !== "none", mcp: s.mcp, resume: s.resume, cost: s.cost, plan: s.plan };
      const unproven = Object.entries(claimed).filter(([cap, yes]) => yes && !proven(cap as keyof typeof proof)).map(([cap]) => cap);
      expect(unproven).toEqual(UNPROVEN[p.name] ?? []);
    });
  }
});
