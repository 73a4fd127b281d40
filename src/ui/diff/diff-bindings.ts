import { errorMessage } from "../../errors.ts";
import type { Agent } from "../../protocol/entities.ts";
import { ch } from "../keys/key-spec.ts";
import type { Binding } from "../keys/binding.ts";
import { currentView } from "../shell/ui-state.ts";

function diffTitle(a: Agent): string {
  return a.branch && a.baseRef ? `Diff · ${a.name} · ${a.baseRef}...${a.branch}` : `Diff · ${a.name} · uncommitted changes in ${a.cwd}`;
}

/** `d` on an agent: its diff over the current view; in the diff view, back. */
export const agentDiff: Binding = {
  command: "diff",
  keys: [ch("d")],
  help: "diff of the agent's branch against its base",
  hint: "diff",
  disabled: (env) => (currentView(env.ui) === "diff" ? null : env.selected ? null : "no agent selected"),
  run: (env) => {
    const { selected, dispatch } = env;
    if (currentView(env.ui) === "diff" || !selected) {
      dispatch({ type: "back" });
      return;
    }
    dispatch({ type: "diffOpen", key: selected.id, title: diffTitle(selected) });
    env.deps.loadDiff(selected).then(
      (lines) => dispatch({ type: "diffLoaded", key: selected.id, lines }),
      (err: unknown) => dispatch({ type: "diffFailed", key: selected.id, error: errorMessage(err) }),
    );
  },
};
