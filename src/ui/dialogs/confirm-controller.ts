import { ch, named } from "../keys/key-spec.ts";
import { quitFromDialog } from "../agents/agent-bindings.ts";
import { confirmStop } from "./agent-dialogs.ts";
import { confirmFlowRun } from "../flows/flow-actions.ts";
import { confirmWork, editAgain } from "../phases/work-actions.ts";
import type { Binding, Controller, KeyEnv } from "../keys/binding.ts";

const close = (env: KeyEnv) => {
  env.dispatch({ type: "close" });
  return "dialog" as const;
};

/** esc cancels every dialog, forms and confirmations alike. */
export const cancel: Binding = { command: "cancel", keys: [named("escape", "esc")], help: "cancel", run: close };

/** A yes/no question: stop an agent, detail a phase, dispatch an initiative, edit again after a refusal, run a flow. */
export const confirmController: Controller = {
  context: "confirm",
  bindings: [
    cancel,
    {
      command: "confirm",
      keys: [ch("y"), named("return", "enter")],
      help: "yes",
      run: (env) => {
        const kind = env.ui.modal.kind;
        if (kind === "work-confirm") confirmWork(env);
        else if (kind === "edit-error") editAgain(env);
        else if (kind === "flow-run") confirmFlowRun(env);
        else confirmStop(env);
        return "dialog";
      },
    },
    { command: "cancel", keys: [ch("n")], help: "no", run: close },
    quitFromDialog,
  ],
};
