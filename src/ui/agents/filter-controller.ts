import { named } from "../kit/keys/key-spec.ts";
import { quitFromDialog } from "../kit/keys/helpers.ts";
import type { Controller } from "../kit/keys/binding.ts";

/** The `/` prompt: what is typed filters the list; enter keeps it, esc clears it. */
export const filterController: Controller = {
  context: "filter",
  bindings: [
    { command: "submit", keys: [named("return", "enter")], help: "keep the filter", run: (env) => env.dispatch({ type: "filterDone", keep: true }) },
    { command: "cancel", keys: [named("escape", "esc")], help: "clear the filter", run: (env) => env.dispatch({ type: "filterDone", keep: false }) },
    quitFromDialog,
  ],
  typing: (env, { input, key }) => {
    if (key.backspace || key.delete) env.dispatch({ type: "filterBackspace" });
    // eslint-disable-next-line no-control-regex
    else if (!key.ctrl && !key.meta && input && !/[\x00-\x1f]/.test(input)) env.dispatch({ type: "filterInput", text: input });
  },
  paste: (env, text) => env.dispatch({ type: "filterInput", text }),
};
