import { named } from "../kit/keys/key-spec.ts";
import type { Controller, KeyEnv } from "../kit/keys/binding.ts";
import { down, end, home, pageDown, pageUp, scrolledTop, up, type ScrollHow } from "../kit/keys/helpers.ts";
import { phaseActions } from "./phase-bindings.ts";

/** Scrolls the content pane; its rows are the pane's height less its title. */
function scrollContent(env: KeyEnv, how: ScrollHow): void {
  const rows = Math.max(1, env.screen.phaseLayout.output.height - 1);
  const max = Math.max(0, env.screen.phaseContent.length - rows);
  env.dispatch({ type: "phaseScroll", top: scrolledTop(how, env.ui.phases.contentTop, max, Math.max(1, rows - 1)) });
}

/** The phases view's content pane focused: the keys scroll it; tab or esc go back to the tree. */
export const phaseContentController: Controller = {
  context: "phaseContent",
  bindings: [
    { ...up((env) => scrollContent(env, "up")), help: "scroll the content up" },
    { ...down((env) => scrollContent(env, "down")), help: "scroll the content down" },
    { ...pageUp((env) => scrollContent(env, "pageUp")), help: "scroll the content up a page" },
    { ...pageDown((env) => scrollContent(env, "pageDown")), help: "scroll the content down a page" },
    { ...home((env) => scrollContent(env, "home")), help: "the content's start" },
    { ...end((env) => scrollContent(env, "end")), help: "the content's end" },
    { command: "focusTree", keys: [named("tab", "tab", false), named("escape", "esc")], help: "back to the tree", run: (env) => env.dispatch({ type: "phasePane", pane: "tree" }) },
    ...phaseActions,
  ],
};
