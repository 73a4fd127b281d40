import { back, diff, down, end, help, home, pageDown, pageUp, quit, up } from "../agents/agent-bindings.ts";
import type { ScrollHow } from "../output/output-controller.ts";
import type { Controller, KeyEnv } from "../keys/binding.ts";

function scrollDiff(env: KeyEnv, how: ScrollHow): void {
  const d = env.ui.diff;
  if (!d) return;
  const rows = env.screen.diffRows;
  const max = Math.max(0, (d.lines?.length ?? 0) - rows);
  const top = Math.min(d.top, max);
  const next =
    how === "home" ? 0
    : how === "end" ? max
    : top + (how === "up" ? -1 : how === "down" ? 1 : how === "pageUp" ? -(rows - 1) : rows - 1);
  env.dispatch({ type: "diffScroll", top: Math.max(0, Math.min(max, next)) });
}

/** The diff view: the keys scroll it; esc or d goes back to the view it was opened from. */
export const diffController: Controller = {
  context: "diff",
  bindings: [
    up((env) => scrollDiff(env, "up")),
    down((env) => scrollDiff(env, "down")),
    pageUp((env) => scrollDiff(env, "pageUp")),
    pageDown((env) => scrollDiff(env, "pageDown")),
    home((env) => scrollDiff(env, "home")),
    end((env) => scrollDiff(env, "end")),
    { ...back((env) => env.dispatch({ type: "back" })), help: "back to the view the diff was opened from" },
    diff,
    help,
    quit,
  ],
};
