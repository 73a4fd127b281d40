import { named } from "../../kit/keys/key-spec.ts";
import { down, up } from "../../kit/keys/helpers.ts";
import { cyclePane, outputPaging } from "../../output/output-bindings.ts";
import { agentActions } from "./agent-actions.ts";
import type { Controller, KeyEnv } from "../../kit/keys/binding.ts";

/** Moves from the selection as shown (the first row when none was chosen yet). */
const move = (env: KeyEnv, delta: number) => env.dispatch({ type: "move", delta, ids: env.screen.ids, from: env.screen.selectedId });

/** The agents list focused: arrows and j/k select. */
export const listController: Controller = {
  context: "list",
  bindings: [
    up((env) => move(env, -1)),
    down((env) => move(env, 1)),
    ...outputPaging,
    { command: "focusOutput", keys: [named("return", "enter")], help: "focus the output pane", hint: "output", run: (env) => env.dispatch({ type: "pane", pane: "output" }) },
    cyclePane,
    ...agentActions,
  ],
};
