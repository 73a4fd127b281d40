import { back, down, end, help, home, pageDown, pageUp, quit, scrolledTop, up, type ScrollHow } from "../keys/helpers.ts";
import type { Controller, KeyEnv } from "../keys/binding.ts";
import { agentDiff } from "./diff-bindings.ts";

function scrollDiff(env: KeyEnv, how: ScrollHow): void {
  const d = env.ui.diff;
  if (!d) return;
  const rows = env.screen.diffRows;
  const max = Math.max(0, (d.lines?.length ?? 0) - rows);
  env.dispatch({ type: "diffScroll", top: scrolledTop(how, d.top, max, rows - 1) });
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
    agentDiff,
    help,
    quit,
  ],
};
