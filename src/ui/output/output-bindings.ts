import { ch, named } from "../kit/keys/key-spec.ts";
import type { Binding, KeyEnv } from "../kit/keys/binding.ts";
import { end, home, pageDown, pageUp, say, type ScrollHow } from "../kit/keys/helpers.ts";
import { FOLLOW, scrollBy, scrollHome } from "./scroll.ts";

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

export const toggleRaw: Binding = {
  command: "toggleRaw",
  keys: [ch("v")],
  help: "raw / rendered output",
  hint: "raw",
  run: (env) => {
    env.dispatch({ type: "toggleRaw" });
    say(env, env.ui.raw ? "rendered output" : "raw output: lines as the CLI wrote them");
  },
};
