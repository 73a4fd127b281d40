import { ch, named } from "../keys/key-spec.ts";
import { cancel, opensDialog, quitFromDialog } from "../keys/helpers.ts";
import { confirmStop } from "./agent-dialogs.ts";
import { confirmFlowRun } from "../flows/flow-actions.ts";
import { confirmWork, editAgain } from "../phases/work-actions.ts";
import type { Controller } from "../keys/binding.ts";

/** A yes/no question: stop an agent, detail a phase, dispatch an initiative, edit again after a refusal, run a flow. */
export const confirmController: Controller = {
  context: "confirm",
  bindings: [
    cancel,
    {
      command: "confirm",
      keys: [ch("y"), named("return", "enter")],
      help: "yes",
      run: opensDialog((env) => {
        const kind = env.ui.modal.kind;
        if (kind === "work-confirm") confirmWork(env);
        else if (kind === "edit-error") editAgain(env);
        else if (kind === "flow-run") confirmFlowRun(env);
        else confirmStop(env);
      }),
    },
    { command: "cancel", keys: [ch("n")], help: "no", run: cancel.run },
    quitFromDialog,
  ],
};
