import type { Agent } from "../../protocol/entities.ts";
import { ch } from "../kit/keys/key-spec.ts";
import type { Binding } from "../kit/keys/binding.ts";
import { topView } from "../kit/keys/helpers.ts";
import { openAgentDiff } from "./open-diff.ts";

function diffTitle(a: Agent): string {
  return a.branch && a.baseRef ? `Diff · ${a.name} · ${a.baseRef}...${a.branch}` : `Diff · ${a.name} · uncommitted changes in ${a.cwd}`;
}

/** `d` on an agent: its diff (and its pending review) over the current view; in the diff view, back. */
export const agentDiff: Binding = {
  command: "diff",
  keys: [ch("d")],
  help: "diff of the agent's branch against its base (comment on its lines, send them back: keys under Diff)",
  hint: "diff",
  disabled: (env) => (topView(env) === "diff" ? null : env.selected ? null : "no agent selected"),
  run: (env) => {
    const { selected } = env;
    if (topView(env) === "diff" || !selected) {
      env.dispatch({ type: "back" });
      return;
    }
    openAgentDiff(env, selected, diffTitle(selected));
  },
};
