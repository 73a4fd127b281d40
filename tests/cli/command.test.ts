import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "../../src/cli/registry.ts";
import { COMMON_FLAGS, type Command } from "../../src/cli/command.ts";
import { command as dashboard } from "../../src/cli/dashboard.ts";

/**
 * Each command declares its flags and usage once (src/cli/command.ts); these tests hold the two
 * to each other: no flag the parser takes is missing from `--help`, no flag `--help` names is
 * one the parser refuses, and every declared flag is read by the command's code.
 */
const CLI = join(import.meta.dir, "../../src/cli");
const registry = readFileSync(join(CLI, "registry.ts"), "utf8");

/** The module a registry entry loads (the modes share one). */
function sourceOf(name: string): string {
  const at = registry.indexOf(`name: "${name}"`);
  // the mode commands are one entry, named by a variable
  const from = at >= 0 ? at : registry.indexOf('import("./modes.ts")');
  return readFileSync(join(CLI, /import\("\.\/([a-z-]+\.ts)"\)/.exec(registry.slice(from))![1]!), "utf8");
}

const all = async (): Promise<[string, Command][]> => [["dashboard", dashboard], ...(await Promise.all(COMMANDS.map(async (c) => [c.name, await c.load()] as [string, Command])))];
const flagsIn = (text: string) => [...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!);

describe("commands declare their flags and usage once", () => {
  test("every flag a command parses is in its --help", async () => {
    const missing: string[] = [];
    for (const [name, cmd] of await all()) {
      const shown = new Set(flagsIn(cmd.usage));
      for (const flag of Object.keys(cmd.spec.flags)) if (!shown.has(flag)) missing.push(`${name} --${flag}`);
    }
    expect(missing).toEqual([]);
  });

  test("every flag --help names is one the command parses (or another command's, named with it)", async () => {
    const cmds = new Map(await all());
    const unknown: string[] = [];
    for (const [name, cmd] of cmds) {
      // `troupe spawn --account`: a flag of the command it names
      const elsewhere = [...cmd.usage.matchAll(/troupe ([a-z]+) --([a-z-]+)/g)].filter(([, other]) => other !== name);
      for (const [, other, flag] of elsewhere) if (!(flag! in (cmds.get(other!)?.spec.flags ?? {}))) unknown.push(`${name}: troupe ${other} --${flag}`);
      // `claude --resume`: an agent CLI's own
      const external = [...cmd.usage.matchAll(/\b(?:claude|codex|gemini) --([a-z-]+)/g)];
      const theirs = new Set([...elsewhere.map((m) => m[2]), ...external.map((m) => m[1])]);
      for (const flag of flagsIn(cmd.usage)) {
        if (!(flag in cmd.spec.flags) && !COMMON_FLAGS.includes(flag) && !theirs.has(flag)) unknown.push(`${name} --${flag}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  test("a command with forms parses each declared flag in at least one of them", async () => {
    const unparsed: string[] = [];
    for (const [name, cmd] of await all()) {
      if (!cmd.spec.forms) continue;
      const parsed = new Set(Object.values(cmd.spec.forms).flatMap((f) => f.flags));
      for (const flag of Object.keys(cmd.spec.flags)) if (!parsed.has(flag)) unparsed.push(`${name} --${flag}`);
    }
    expect(unparsed).toEqual([]);
  });

  test("every declared flag is read by the command's code", async () => {
    const unread: string[] = [];
    for (const [name, cmd] of await all()) {
      const src = name === "dashboard" ? readFileSync(join(CLI, "dashboard.ts"), "utf8") : sourceOf(name);
      // values.x, values["x"], a helper's v.x, or a list of names read in a loop (["user", "all"])
      const read = (flag: string) => [`values.${flag}`, `values["${flag}"]`, `v.${flag}`, `"${flag}",`, `"${flag}"]`].some((use) => src.includes(use));
      for (const flag of Object.keys(cmd.spec.flags)) if (!read(flag)) unread.push(`${name} --${flag}`);
    }
    expect(unread).toEqual([]);
  });

  test("the parser takes each declared flag and refuses any other, with a usage error", async () => {
    for (const [name, cmd] of await all()) {
      for (const [flag, f] of Object.entries(cmd.spec.flags)) {
        const form = Object.entries(cmd.spec.forms ?? {}).find(([, f]) => f.flags.includes(flag))?.[0];
        const args = f.type === "string" ? [`--${flag}`, "x"] : [`--${flag}`];
        const parsed = form ? cmd.parseForm(form, args) : cmd.parse(args);
        expect(`${name} --${flag}: ${(parsed.values as Record<string, unknown>)[flag] !== undefined}`).toBe(`${name} --${flag}: true`);
      }
      expect(() => cmd.parse(["--no-such-flag"])).toThrow("Unknown option '--no-such-flag'");
    }
  });

  test("each usage starts with its command, and the registry names each command once", async () => {
    for (const [name, cmd] of await all()) expect(cmd.usage.startsWith(name === "dashboard" ? "troupe [" : `troupe ${name} `) || cmd.usage === `troupe ${name}`).toBe(true);
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
