import { TroupeError } from "../errors.ts";
import type { MODE_ENDPOINTS } from "../protocol/api/modes.ts";
import { AgentModeSchema } from "../protocol/work.ts";
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
    modePrompt(_caller, { mode, ref, provider = "claude" }) {
      const m = AgentModeSchema.safeParse(mode);
      if (!m.success) throw new TroupeError("bad_request", `no mode '${mode}' (${AgentModeSchema.options.join(", ")})`);
      const { prompt, blocks } = modes.prompt(m.data, ref ?? null, provider);
      return { mode: m.data, provider, placeholder: ref === undefined, prompt, blocks };
    },
  };
}
