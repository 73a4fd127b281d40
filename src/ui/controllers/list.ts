import { named } from "../keys.ts";
import { agentActions, down, up } from "./common.ts";
import { cyclePane, outputPaging } from "./output.ts";
import type { Controller, KeyEnv } from "./types.ts";

/** Moves from the selection as shown (which may be the first row when none was chosen yet). */
function move(env: KeyEnv, delta: number): void {
  const { ids, selectedId } = env.screen;
  if (!ids.length) return;
  const cur = selectedId === null ? -1 : ids.indexOf(selectedId);
  const next = cur === -1 ? 0 : Math.max(0, Math.min(ids.length - 1, cur + delta));
  env.dispatch({ type: "select", id: ids[next]! });
}

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
