import type { Controller } from "../../kit/keys/binding.ts";
import { back, down, up } from "../../kit/keys/helpers.ts";
import { agentActions } from "./agent-actions.ts";
import { cyclePane, outputPaging, scrollOutput } from "../../output/output-bindings.ts";

/** The output pane focused: arrows scroll it, esc goes back to the list. */
export const outputController: Controller = {
  context: "output",
  bindings: [
    up((env) => scrollOutput(env, "up")),
    down((env) => scrollOutput(env, "down")),
    ...outputPaging,
    back((env) => env.dispatch({ type: "pane", pane: "list" })),
    cyclePane,
    ...agentActions,
  ],
};
