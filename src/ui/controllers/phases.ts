import { back, help, phases, quit } from "./common.ts";
import type { Controller } from "./types.ts";

/** The phases view (a placeholder until the work model lands). */
export const phasesController: Controller = {
  context: "phases",
  bindings: [back((env) => env.dispatch({ type: "view", view: "agents" })), phases, help, quit],
};
