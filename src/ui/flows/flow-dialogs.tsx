import { errorMessage } from "../../errors.ts";
import { ConfirmDialog } from "../kit/components/ConfirmDialog.tsx";
import type { DialogsOf } from "../kit/dialogs/dialog-spec.ts";
import type { KeyEnv } from "../kit/keys/binding.ts";
import { closeSaying } from "../kit/keys/helpers.ts";
import { reloadFlows, selectedFlow } from "./flow-actions.ts";
import type { FlowModal, FlowRunModal } from "./flows-ui.ts";

/** `r` in the flows view: asks before running the selected flow now (it starts an agent). */
export function openFlowRun(env: KeyEnv): "dialog" {
  const f = selectedFlow(env);
  if (f) env.dispatch({ type: "open", modal: { kind: "flow-run", name: f.name, busy: false } });
  return "dialog";
}

/** `y` in the run dialog: runs it now (its gate first), then says what the run did. */
function runFlow(env: KeyEnv, m: FlowRunModal): void {
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.runFlow(m.name).then(
    (r) => {
      closeSaying(env, `${m.name}: ${r.outcome}`);
      reloadFlows(env);
    },
    (err: unknown) => closeSaying(env, errorMessage(err), "error"),
  );
}

export const FLOW_DIALOGS: DialogsOf<FlowModal> = {
  "flow-run": {
    keys: "confirm",
    render: (m, { width, height }) => (
      <ConfirmDialog title={`Run ${m.name} now?`} question={`Run the flow ${m.name} now (its gate first, if it has one)? It starts an agent; its schedule stays as it is.`} busy={m.busy} width={width} height={height} />
    ),
    submit: runFlow,
  },
};
