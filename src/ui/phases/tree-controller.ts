import { named } from "../kit/keys/key-spec.ts";
import type { Controller, KeyEnv } from "../kit/keys/binding.ts";
import { back, down, up } from "../kit/keys/helpers.ts";
import { phaseActions } from "./phase-bindings.ts";

/** Moves the selection through the tree as shown (from the first row until one is chosen). */
function move(env: KeyEnv, delta: number): void {
  const keys = env.screen.phaseRows.map((r) => r.key);
  if (!keys.length) return;
  const cur = env.screen.phaseSelected ? keys.indexOf(env.screen.phaseSelected.key) : -1;
  const next = cur === -1 ? 0 : Math.max(0, Math.min(keys.length - 1, cur + delta));
  env.dispatch({ type: "phaseSelect", key: keys[next]! });
}

const toContent = (env: KeyEnv) => env.dispatch({ type: "phasePane", pane: "content" });

/** The phases tree focused: j/k select, enter folds, tab goes to the content pane. */
export const phasesController: Controller = {
  context: "phases",
  bindings: [
    { ...up((env) => move(env, -1)), help: "select the item above" },
    { ...down((env) => move(env, 1)), help: "select the item below" },
    {
      command: "toggle",
      keys: [named("return", "enter")],
      help: "expand / collapse the selected initiative or phase (a task: its content)",
      hint: "fold",
      disabled: (env) => (env.screen.phaseSelected ? null : "nothing selected"),
      run: (env) => {
        const r = env.screen.phaseSelected;
        if (r?.kind === "task") toContent(env);
        else if (r) env.dispatch({ type: "phaseToggle", key: r.key });
      },
    },
    { command: "focusContent", keys: [named("tab", "tab", false)], help: "focus the content pane (to scroll it)", run: toContent },
    { ...back((env) => env.dispatch({ type: "back" })), help: "back to the view below" },
    ...phaseActions,
  ],
};
