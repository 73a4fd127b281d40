import type { FlowService } from "../flows/service.ts";
import type { FLOW_ENDPOINTS } from "../protocol/api/flows.ts";
import type { HandlersOf } from "./services.ts";

/** Scheduled flows. */
export function flowsApi(flows: FlowService): HandlersOf<typeof FLOW_ENDPOINTS> {
  return {
    flows: () => flows.list(),
    addFlow: (_caller, req) => flows.add(req),
    flow: (_caller, { ref }) => flows.get(ref),
    removeFlow: (_caller, { ref }) => flows.remove(ref),
    enableFlow: (_caller, { ref }) => flows.setEnabled(ref, true),
    disableFlow: (_caller, { ref }) => flows.setEnabled(ref, false),
    runFlow: (_caller, { ref }) => flows.run(ref),
  };
}
