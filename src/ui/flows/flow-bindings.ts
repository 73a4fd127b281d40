import { ch } from "../kit/keys/key-spec.ts";
import type { Binding } from "../kit/keys/binding.ts";
import { topView } from "../kit/keys/helpers.ts";
import { reloadFlows } from "./flow-actions.ts";

/** `f`: opens the flows view (reading them: flows publish no events) or, from it, goes back to the agents. */
export const flowsView: Binding = {
  command: "flows",
  keys: [ch("f")],
  help: "flows view (scheduled runs)",
  run: (env) => {
    const open = topView(env) === "flows";
    env.dispatch({ type: "view", view: open ? "agents" : "flows" });
    if (!open) reloadFlows(env);
  },
};
