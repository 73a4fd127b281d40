import { errorMessage } from "../../errors.ts";
import { isLive } from "../../protocol/status.ts";
import type { Agent } from "../../protocol/entities.ts";
import { ch, ctrl, named } from "../keys/key-spec.ts";
import { nothingToAnswer, openAnswer, openNewAgent, openResume, openStop } from "../dialogs/agent-dialogs.ts";
import { say, type Binding, type KeyEnv } from "../keys/binding.ts";
import { currentView } from "../shell/ui-state.ts";
import { attachBinding } from "./attach.ts";
import { reloadFlows } from "../flows/flow-actions.ts";

/** Bindings several controllers share, each defined once (the help shows each once). */

const noAgent = (env: KeyEnv) => (env.selected ? null : "no agent selected");

export const up = (run: Binding["run"]): Binding => ({ command: "up", keys: [named("upArrow", "↑"), ch("k")], help: "select the agent above / scroll up", run });
export const down = (run: Binding["run"]): Binding => ({ command: "down", keys: [named("downArrow", "↓"), ch("j")], help: "select the agent below / scroll down", run });
export const pageUp = (run: Binding["run"]): Binding => ({ command: "pageUp", keys: [named("pageUp", "PgUp")], help: "scroll output up a page (stops following)", run });
export const pageDown = (run: Binding["run"]): Binding => ({ command: "pageDown", keys: [named("pageDown", "PgDn")], help: "scroll output down a page", run });
export const home = (run: Binding["run"]): Binding => ({ command: "home", keys: [named("home", "Home")], help: "jump to the start of the output", run });
export const end = (run: Binding["run"]): Binding => ({ command: "end", keys: [named("end", "End"), ch("G")], help: "jump to the end and follow new output", run });

export const back = (run: Binding["run"]): Binding => ({ command: "back", keys: [named("escape", "esc")], help: "back to the list", run });

export const help: Binding = {
  command: "help",
  keys: [ch("?")],
  help: "this help",
  hint: "help",
  run: (env) => {
    env.dispatch({ type: "open", modal: { kind: "help", top: 0 } });
    return "dialog";
  },
};

export const quit: Binding = {
  command: "quit",
  keys: [ch("q"), ctrl("c")],
  help: "quit the dashboard (agents keep running)",
  hint: "quit",
  run: (env) => {
    env.quit();
    return "dialog";
  },
};

/** ctrl+c quits from dialogs and the filter too, where q is typing. */
export const quitFromDialog: Binding = { ...quit, keys: [ctrl("c")], help: "quit", hint: undefined };

export const phases: Binding = {
  command: "phases",
  keys: [ch("p")],
  help: "phases view",
  run: (env) => env.dispatch({ type: "view", view: currentView(env.ui) === "phases" ? "agents" : "phases" }),
};

/** Opens the flows view (reading them: flows publish no events) or, from it, goes back to the agents. */
export const flows: Binding = {
  command: "flows",
  keys: [ch("f")],
  help: "flows view (scheduled runs)",
  run: (env) => {
    const open = currentView(env.ui) === "flows";
    env.dispatch({ type: "view", view: open ? "agents" : "flows" });
    if (!open) reloadFlows(env);
  },
};

function diffTitle(a: Agent): string {
  return a.branch && a.baseRef ? `Diff · ${a.name} · ${a.baseRef}...${a.branch}` : `Diff · ${a.name} · uncommitted changes in ${a.cwd}`;
}

export const diff: Binding = {
  command: "diff",
  keys: [ch("d")],
  help: "diff of the agent's branch against its base",
  hint: "diff",
  disabled: (env) => (currentView(env.ui) === "diff" ? null : noAgent(env)),
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

/** What the list and the output pane both offer on the selected agent. */
export const agentActions: readonly Binding[] = [
  {
    command: "answer",
    keys: [ch("a")],
    help: "allow or deny the agent's tool call; answer its questions or user conversation; read its messages (and reply)",
    hint: "answer",
    disabled: nothingToAnswer,
    run: (env) => {
      openAnswer(env);
      return "dialog";
    },
  },
  {
    command: "newAgent",
    keys: [ch("n")],
    help: "new agent",
    hint: "new",
    run: (env) => {
      openNewAgent(env);
      return "dialog";
    },
  },
  {
    command: "stop",
    keys: [ch("s")],
    help: "stop the agent (asks first)",
    hint: "stop",
    disabled: (env) => {
      const a = env.selected;
      if (!a) return "no agent selected";
      return isLive(a.status) ? null : `${a.name} is ${a.status}, not running`;
    },
    run: (env) => {
      if (env.selected) openStop(env, env.selected);
      return "dialog";
    },
  },
  {
    command: "resume",
    keys: [ch("r")],
    help: "resume the agent with a message",
    hint: "resume",
    disabled: noAgent,
    run: (env) => {
      if (env.selected) openResume(env, env.selected);
      return "dialog";
    },
  },
  attachBinding,
  diff,
  {
    command: "toggleRaw",
    keys: [ch("v")],
    help: "raw / rendered output",
    hint: "raw",
    run: (env) => {
      env.dispatch({ type: "toggleRaw" });
      say(env, env.ui.raw ? "rendered output" : "raw output: lines as the CLI wrote them");
    },
  },
  { command: "filter", keys: [ch("/")], help: "filter agents by status or text", hint: "filter", run: (env) => env.dispatch({ type: "filterStart" }) },
  phases,
  flows,
  help,
  quit,
];
