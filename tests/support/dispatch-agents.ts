import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Scripted agents for dispatch: one shell script run by the generic provider for every mode.
 * It reads its input (`.troupe/input/phase.md`, `task.md`: their `slug:`) and runs
 * `<dir>/<mode>-<slug>.sh` in its worktree; a resume asking it to resolve a merge conflict runs
 * `<dir>/resolve-<slug>.sh`, one asking it to commit what it left `<dir>/commit-<slug>.sh`. Each run appends `<mode> <slug>` to `<dir>/runs.log`, so a test
 * counts what ran. A script that fails makes the agent signal an error.
 */
export class ScriptedAgents {
  readonly dir: string;

  constructor(parent: string) {
    this.dir = join(parent, "agents");
    mkdirSync(this.dir, { recursive: true });
    const agent = `#!/bin/sh
in=.troupe/input
slug() { sed -n 's/^slug: //p' "$1" | head -1; }
d=${JSON.stringify(this.dir)}
if [ -f $in/task.md ]; then mode=execute; s=$(slug $in/task.md)
elif [ -f $in/phase.md ]; then mode=detail; s=$(slug $in/phase.md)
else mode=plan; s=plan; fi
case "$TROUPE_PROMPT" in *"could not be merged"*) mode=resolve;; *"uncommitted changes in your worktree"*) mode=commit;; esac
echo "$mode $s" >> "$d/runs.log"
if sh -e "$d/$mode-$s.sh" > "$d/$mode-$s.out" 2>&1; then troupe signal done --result "$mode $s done"
else troupe signal error --error "$mode $s: $(tail -1 "$d/$mode-$s.out")"; fi
`;
    writeFileSync(this.command, agent);
    chmodSync(this.command, 0o755);
  }

  get command(): string {
    return join(this.dir, "agent.sh");
  }

  /** `<mode>-<slug>.sh`, run with `sh -e` in the agent's worktree. */
  script(mode: "plan" | "detail" | "execute" | "resolve" | "commit", slug: string, body: string): void {
    writeFileSync(join(this.dir, `${mode}-${slug}.sh`), `${body}\n`);
  }

  /** A detail script writing these task files (`dependsOn` as slugs, `files` as the globs it owns). */
  detail(phase: string, tasks: Record<string, { title: string; dependsOn?: string[]; files?: string[] }>): void {
    const lines = ["mkdir -p .troupe/output/tasks"];
    for (const [slug, t] of Object.entries(tasks)) {
      const files = t.files ? `files: [${t.files.map((f) => `"${f}"`).join(", ")}]\n` : "";
      const text = `---\ntitle: ${t.title}\ndependsOn: [${(t.dependsOn ?? []).join(", ")}]\n${files}---\n${t.title}.\n`;
      lines.push(`printf '%s' '${text}' > .troupe/output/tasks/${slug}.md`);
    }
    this.script("detail", phase, lines.join("\n"));
  }

  /** An execute script that writes `file` and commits it (after `before`, if given). */
  commits(slug: string, file: string, content: string, before = ""): void {
    this.script("execute", slug, `${before}\nprintf '%s\\n' '${content}' > ${file}\ngit add ${file}\ngit commit -q -m "task ${slug}: ${file}"`);
  }

  runs(): string[] {
    try {
      return readFileSync(join(this.dir, "runs.log"), "utf8").split("\n").filter(Boolean);
    } catch {
      return [];
    }
  }
}
