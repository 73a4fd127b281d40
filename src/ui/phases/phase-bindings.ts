import { ch } from "../kit/keys/key-spec.ts";
import type { Binding } from "../kit/keys/binding.ts";
import { help, opensDialog, quit, topView } from "../kit/keys/helpers.ts";
import {
  approve,
  editSelected,
  noAgentToOpen,
  noDiff,
  notDetailable,
  notDispatchable,
  notEditable,
  notRetryable,
  notReviewable,
  openAgent,
  openDetail,
  openDiff,
  retry,
  toggleDispatch,
} from "./work-actions.ts";
import { openReject } from "./phase-dialogs.tsx";

/** `p`: the phases view, or from it back to the agents. */
export const phasesView: Binding = {
  command: "phases",
  keys: [ch("p")],
  help: "phases view",
  run: (env) => env.dispatch({ type: "view", view: topView(env) === "phases" ? "agents" : "phases" }),
};

/** The actions on the selected item, the same from the tree and from the content pane. */
export const phaseActions: readonly Binding[] = [
  { command: "approve", keys: [ch("y")], help: "approve the selected proposal", hint: "approve", disabled: notReviewable, run: approve },
  { command: "reject", keys: [ch("x")], help: "reject it (asks a reason, and whether its agent proposes again)", hint: "reject", disabled: notReviewable, run: opensDialog(openReject) },
  // The editor takes the terminal: keys typed ahead of it were meant for it, not for us.
  { command: "edit", keys: [ch("e")], help: "edit the selected proposal in $EDITOR", hint: "edit", disabled: notEditable, run: opensDialog(editSelected) },
  { command: "detail", keys: [ch("D")], help: "detail the selected phase: start a detail agent (asks first)", hint: "detail", disabled: notDetailable, run: opensDialog(openDetail) },
  { command: "dispatch", keys: [ch("g")], help: "dispatch the initiative (asks first) / stop dispatching it", hint: "dispatch", disabled: notDispatchable, run: toggleDispatch },
  { command: "retry", keys: [ch("R")], help: "retry the selected blocked or failed task", hint: "retry", disabled: notRetryable, run: retry },
  { command: "diff", keys: [ch("d")], help: "diff of the selected task's or initiative's branch", hint: "diff", disabled: noDiff, run: openDiff },
  { command: "openAgent", keys: [ch("o")], help: "the selected task's agent, in the agents view", hint: "agent", disabled: noAgentToOpen, run: openAgent },
  { ...phasesView, help: "back to the agents view" },
  help,
  quit,
];
