import type { MODE_ENDPOINTS } from "../protocol/api/modes.ts";
import type { ModeService } from "../work/modes.ts";
import type { HandlersOf } from "./services.ts";

type ModeRun = HandlersOf<typeof MODE_ENDPOINTS>["plan"];

/** `troupe discuss|plan|refine I`, `troupe detail PHASE` (execute runs come from dispatch); an agent's run is its child. */
export function modesApi(modes: ModeService): HandlersOf<typeof MODE_ENDPOINTS> {
  const run =
    (mode: "discuss" | "plan" | "refine" | "detail"): ModeRun =>
    (caller, { ref, ...req }) =>
      modes.start(mode, ref, req, caller.kind === "agent" ? caller.agent.id : null);
  return {
    discuss: run("discuss"),
    plan: run("plan"),
    refine: run("refine"),
    detail: run("detail"),
    decisions: (_caller, { ref }) => modes.decisions(ref),
  };
}
