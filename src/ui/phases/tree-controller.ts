import { ch, named } from "../keys/key-spec.ts";
import { back, down, end, help, home, pageDown, pageUp, phases, quit, up } from "../agents/agent-bindings.ts";
import type { Binding, Controller, KeyEnv } from "../keys/binding.ts";
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
  openReject,
  retry,
  toggleDispatch,
} from "./work-actions.ts";

/** Moves the selection through the tree as shown (from the first row until one is chosen). */
function move(env: KeyEnv, delta: number): void {
  const keys = env.screen.phaseRows.map((r) => r.key);
  if (!keys.length) return;
  const cur = env.screen.phaseSelected ? keys.indexOf(env.screen.phaseSelected.key) : -1;
  const next = cur === -1 ? 0 : Math.max(0, Math.min(keys.length - 1, cur + delta));
  env.dispatch({ type: "phaseSelect", key: keys[next]! });
}

type ScrollHow = "up" | "down" | "pageUp" | "pageDown" | "home" | "end";

/** Scrolls the content pane; its rows are the pane's height less its title. */
function scrollContent(env: KeyEnv, how: ScrollHow): void {
  const rows = Math.max(1, env.screen.phaseLayout.output.height - 1);
  const max = Math.max(0, env.screen.phaseContent.length - rows);
  const top = Math.min(env.ui.phases.contentTop, max);
  const page = Math.max(1, rows - 1);
  const next = how === "home" ? 0 : how === "end" ? max : top + (how === "up" ? -1 : how === "down" ? 1 : how === "pageUp" ? -page : page);
  env.dispatch({ type: "phaseScroll", top: Math.max(0, Math.min(max, next)) });
}

const dialog = (run: (env: KeyEnv) => void) => (env: KeyEnv) => {
  run(env);
  return "dialog" as const;
};

/** The actions on the selected item, the same from the tree and from the content pane. */
const actions: readonly Binding[] = [
  { command: "approve", keys: [ch("y")], help: "approve the selected proposal", hint: "approve", disabled: notReviewable, run: approve },
  { command: "reject", keys: [ch("x")], help: "reject it (asks a reason, and whether its agent proposes again)", hint: "reject", disabled: notReviewable, run: dialog(openReject) },
  // The editor takes the terminal: keys typed ahead of it were meant for it, not for us.
  { command: "edit", keys: [ch("e")], help: "edit the selected proposal in $EDITOR", hint: "edit", disabled: notEditable, run: dialog(editSelected) },
  { command: "detail", keys: [ch("D")], help: "detail the selected phase: start a detail agent (asks first)", hint: "detail", disabled: notDetailable, run: dialog(openDetail) },
  { command: "dispatch", keys: [ch("g")], help: "dispatch the initiative (asks first) / stop dispatching it", hint: "dispatch", disabled: notDispatchable, run: toggleDispatch },
  { command: "retry", keys: [ch("R")], help: "retry the selected blocked or failed task", hint: "retry", disabled: notRetryable, run: retry },
  { command: "diff", keys: [ch("d")], help: "diff of the selected task's or initiative's branch", hint: "diff", disabled: noDiff, run: openDiff },
  { command: "openAgent", keys: [ch("o")], help: "the selected task's agent, in the agents view", hint: "agent", disabled: noAgentToOpen, run: openAgent },
  { ...phases, help: "back to the agents view" },
  help,
  quit,
];

const toContent = (env: KeyEnv) => env.dispatch({ type: "phasePane", pane: "content" });
const toTree = (env: KeyEnv) => env.dispatch({ type: "phasePane", pane: "tree" });

/** The phases tree focused: j/k select, enter folds, tab goes to the content pane. */
export const phasesController: Controller = {
  context: "phases",
  bindings: [
    { ...up((env) => move(env, -1)), help: "select the item above" },
    { ...down((env) => move(env, 1)), help: "select the item below" },
    {
      command: "toggle",
      keys: [named("return", "enter")],
      help: "expand / collapse the selected initiative or phase (a task: its content)",
      hint: "fold",
      disabled: (env) => (env.screen.phaseSelected ? null : "nothing selected"),
      run: (env) => {
        const r = env.screen.phaseSelected;
        if (r?.kind === "task") toContent(env);
        else if (r) env.dispatch({ type: "phaseToggle", key: r.key });
      },
    },
    { command: "focusContent", keys: [named("tab", "tab", false)], help: "focus the content pane (to scroll it)", run: toContent },
    { ...back((env) => env.dispatch({ type: "back" })), help: "back to the view below" },
    ...actions,
  ],
};

/** The content pane focused: the keys scroll it; tab or esc go back to the tree. */
export const phaseContentController: Controller = {
  context: "phaseContent",
  bindings: [
    { ...up((env) => scrollContent(env, "up")), help: "scroll the content up" },
    { ...down((env) => scrollContent(env, "down")), help: "scroll the content down" },
    { ...pageUp((env) => scrollContent(env, "pageUp")), help: "scroll the content up a page" },
    { ...pageDown((env) => scrollContent(env, "pageDown")), help: "scroll the content down a page" },
    { ...home((env) => scrollContent(env, "home")), help: "the content's start" },
    { ...end((env) => scrollContent(env, "end")), help: "the content's end" },
    { command: "focusTree", keys: [named("tab", "tab", false), named("escape", "esc")], help: "back to the tree", run: toTree },
    ...actions,
  ],
};
