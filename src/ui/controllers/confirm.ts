import { ch, named } from "../keys.ts";
import { quitFromDialog } from "./common.ts";
import { confirmStop } from "./dialogs.ts";
import { confirmFlowRun } from "./flow-calls.ts";
import { confirmWork, editAgain } from "./work.ts";
import type { Binding, Controller, KeyEnv } from "./types.ts";

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
