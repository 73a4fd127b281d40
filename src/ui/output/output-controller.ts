import { named } from "../keys/key-spec.ts";
import { FOLLOW, scrollBy, scrollHome } from "./scroll.ts";
import { agentActions, back, down, end, home, pageDown, pageUp, up } from "../agents/agent-bindings.ts";
import type { Controller, KeyEnv } from "../keys/binding.ts";

export type ScrollHow = "up" | "down" | "pageUp" | "pageDown" | "home" | "end";

/** Scrolls the selected agent's output; scrolling up stops following, `end` follows again. */
export function scrollOutput(env: KeyEnv, how: ScrollHow): void {
  const src = env.output();
  if (!src) return;
  const vp = env.screen.viewport;
  const page = Math.max(1, vp.height - 1);
  const s = env.ui.scroll;
  const next =
    how === "home" ? scrollHome(src, vp)
    : how === "end" ? FOLLOW
    : scrollBy(src, vp, s, how === "up" ? -1 : how === "down" ? 1 : how === "pageUp" ? -page : page);
  env.dispatch({ type: "scroll", scroll: next });
}

/** Page keys scroll the output from the list too. */
export const outputPaging = [
  pageUp((env) => scrollOutput(env, "pageUp")),
  pageDown((env) => scrollOutput(env, "pageDown")),
  home((env) => scrollOutput(env, "home")),
  end((env) => scrollOutput(env, "end")),
];

export const cyclePane = { command: "cyclePane", keys: [named("tab", "tab", false)], help: "cycle panes", run: (env: KeyEnv) => env.dispatch({ type: "cyclePane" }) };

/** The output pane focused: arrows scroll it, esc goes back to the list. */
export const outputController: Controller = {
  context: "output",
  bindings: [
    up((env) => scrollOutput(env, "up")),
    down((env) => scrollOutput(env, "down")),
    ...outputPaging,
    back((env) => env.dispatch({ type: "pane", pane: "list" })),
    cyclePane,
    ...agentActions,
  ],
};
