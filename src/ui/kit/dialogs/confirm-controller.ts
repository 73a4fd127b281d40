import { ch, named } from "../keys/key-spec.ts";
import { cancel, opensDialog, quitFromDialog } from "../keys/helpers.ts";
import type { Controller } from "../keys/binding.ts";
import type { DialogOf } from "./dialog-spec.ts";

/** A yes/no question (`dialogOf` finds the open one's spec): stop an agent, detail a phase, dispatch an initiative, edit again after a refusal, run a flow. */
export const confirmController = (dialogOf: DialogOf): Controller => ({
  context: "confirm",
  bindings: [
    cancel,
    {
      command: "confirm",
      keys: [ch("y"), named("return", "enter")],
      help: "yes",
      run: opensDialog((env) => {
        const m = env.ui.modal;
        if (m.kind !== "none" && m.kind !== "help" && !m.busy) dialogOf(m).submit(env, m);
      }),
    },
    { command: "cancel", keys: [ch("n")], help: "no", run: cancel.run },
    quitFromDialog,
  ],
});
