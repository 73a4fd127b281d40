import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { completionModel } from "../../src/cli/completion.ts";
import { completionScript, SHELLS, type CompletionModel, type Shell } from "../../src/cli/completion-scripts.ts";
import { COMMANDS } from "../../src/cli/registry.ts";
import { needed } from "../support/tools.ts";

/**
 * `troupe completion SHELL`: scripts derived from the command declarations, run in the real
 * shells (bash's completion function called as bash calls it, fish's `complete -C`; zsh parsed).
 */
let model: CompletionModel;
let dir: string;
const script = (shell: Shell) => {
  const path = join(dir, `troupe.${shell}`);
  writeFileSync(path, completionScript(shell, model));
  return path;
};
beforeAll(async () => {
  model = await completionModel();
  dir = mkdtempSync(join(tmpdir(), "troupe-completion-"));
  return () => rmSync(dir, { recursive: true, force: true });
});

const have = (bin: string) => needed(bin, Bun.spawnSync(["sh", "-c", `command -v ${bin}`]).exitCode === 0);

/** What bash offers for `line` (the cursor at its end), through the script's function. */
function bash(line: string): string[] {
  const words = line.split(" ");
  const src = `source ${script("bash")}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _troupe; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = Bun.spawnSync(["bash", "-c", src]);
  expect(r.stderr.toString()).toBe("");
  return r.stdout.toString().split("\n").filter(Boolean);
}

/** What fish offers for `line`: `complete -C` prints each candidate (a tab before its description). */
function fish(line: string): string[] {
  const r = Bun.spawnSync(["fish", "--no-config", "-c", `source ${script("fish")}; complete -C '${line}'`]);
  expect(r.stderr.toString()).toBe("");
  return r.stdout
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t")[0]!);
}

describe("completion is derived from the declarations", () => {
  test("every command, every form and every flag is in each shell's script", async () => {
    for (const shell of SHELLS) {
      const text = completionScript(shell, model);
      for (const c of COMMANDS) expect(`${shell}: ${text.includes(` ${c.name}`)}`).toBe(`${shell}: true`);
      for (const c of model.commands) for (const f of [...c.flags, ...c.forms.flatMap((x) => [x.name, ...x.flags])]) expect(text).toContain(f);
    }
    const account = model.commands.find((c) => c.name === "account")!;
    const { command } = await import("../../src/cli/account.ts");
    expect(account.forms.map((f) => f.name)).toEqual(Object.keys(command.spec.forms!));
  });

  test.skipIf(!have("bash"))("bash: commands, forms, each form's flags and the dashboard's", () => {
    expect(bash("troupe acc")).toEqual(["account"]);
    expect(bash("troupe account ")).toEqual(["add", "ls", "rm", "reset"]);
    expect(bash("troupe account add --pro")).toEqual(["--provider"]);
    // a form takes only its own flags
    expect(bash("troupe account ls --pro")).toEqual([]);
    expect(bash("troupe logs --fo")).toEqual(["--follow"]);
    expect(bash("troupe --rem")).toEqual(["--remote"]);
    expect(bash("troupe daemon st")).toEqual(["start", "stop", "status"]);
  });

  test.skipIf(!have("fish"))("fish: the same, at each word's own place", () => {
    expect(fish("troupe acc")).toEqual(["account"]);
    expect(fish("troupe account ").sort()).toEqual(["add", "ls", "reset", "rm"]);
    expect(fish("troupe account add --pro")).toEqual(["--provider"]);
    expect(fish("troupe account ls --pro")).toEqual([]);
    expect(fish("troupe initiative new --goal-")).toEqual(["--goal-file"]);
  });

  test.skipIf(!have("zsh"))("zsh: the script parses", () => {
    const r = Bun.spawnSync(["zsh", "-n", script("zsh")]);
    expect(r.stderr.toString()).toBe("");
    expect(r.exitCode).toBe(0);
  });

  test("an unknown shell is a one-line usage error", async () => {
    const { command } = await import("../../src/cli/completion.ts");
    await expect(command.run(["tcsh"])).rejects.toThrow("give one shell: bash, zsh, fish");
  });
});
