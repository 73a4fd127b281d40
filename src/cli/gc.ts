import { TroupeError } from "../errors.ts";
import type { GcReport } from "../protocol/api-gc.ts";
import { connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  {
    synopsis: "troupe gc [--dry-run] [--json]",
    intro: `  removes worktrees of finished agents that are clean and idle past worktree.keepDays (default 7),
  prunes git's records of worktrees that no longer exist, and lists branches troupe made that no
  agent owns (never deleting a branch); --dry-run changes nothing`,
    flags: { "dry-run": { type: "boolean", help: null } },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  if (positionals.length) throw new TroupeError("usage", "gc takes no arguments");
  const { client } = await connect(values.workspace);
  const report = await client.gc({ dryRun: !!values["dry-run"] });
  if (values.json) await printJson(report);
  else await stdout.write(formatReport(report));
  return 0;
}

/** The report for a person: what went (or would), what stays and why, branches nobody owns. */
function formatReport(r: GcReport): string {
  const verb = r.dryRun ? "would remove" : "removed";
  const lines: string[] = [];
  for (const x of r.removed) lines.push(`${verb} ${x.agent}'s worktree ${x.worktree}${x.branch ? ` (${x.branch} stays)` : ""}`);
  for (const x of r.kept) lines.push(`kept ${x.agent}'s worktree: ${x.reason}`);
  for (const p of r.pruned) lines.push(`${r.dryRun ? "would prune" : "pruned"} git's record: ${p}`);
  if (r.orphanBranches.length) lines.push(`branches troupe made that no agent owns (never deleted; 'git branch -D' them yourself): ${r.orphanBranches.join(", ")}`);
  if (!lines.length) lines.push("nothing to clean up");
  return `${lines.join("\n")}\n`;
}
