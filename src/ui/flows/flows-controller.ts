import { ch } from "../kit/keys/key-spec.ts";
import { back, down, help, quit, up } from "../kit/keys/helpers.ts";
import { flowsView } from "./flow-bindings.ts";
import { noFlow, selectedFlow, toggleFlow } from "./flow-actions.ts";
import { openFlowRun } from "./flow-dialogs.tsx";
import type { Controller, KeyEnv } from "../kit/keys/binding.ts";

function move(env: KeyEnv, delta: number): void {
  const names = (env.ui.flows.list ?? []).map((f) => f.name);
  if (!names.length) return;
  const cur = names.indexOf(selectedFlow(env)?.name ?? "");
  env.dispatch({ type: "flowSelect", name: names[Math.max(0, Math.min(names.length - 1, cur + delta))]! });
}

/** The flows view: j/k select, r runs the selected flow now (asks first), e enables or disables it. */
export const flowsController: Controller = {
  context: "flows",
  bindings: [
    { ...up((env) => move(env, -1)), help: "select the flow above" },
    { ...down((env) => move(env, 1)), help: "select the flow below" },
    { command: "runFlow", keys: [ch("r")], help: "run the selected flow now (asks first: it starts an agent)", hint: "run now", disabled: noFlow, run: openFlowRun },
    { command: "toggleFlow", keys: [ch("e")], help: "enable / disable the selected flow", hint: "enable/disable", disabled: noFlow, run: toggleFlow },
    { ...back((env) => env.dispatch({ type: "back" })), help: "back to the agents view" },
    { ...flowsView, help: "back to the agents view" },
    help,
    quit,
  ],
};
