import { errorMessage } from "../../../errors.ts";
import { FormError } from "../form.ts";
import { ch, ctrl, named } from "./key-spec.ts";
import type { Binding, KeyEnv } from "./binding.ts";

/**
 * What the controllers share, so that no controller imports another: the status line, what a
 * dialog does when its action is taken or refused, and the bindings most contexts offer
 * (movement, back, help, quit, cancel), each defined once (the help shows each once).
 */

/** The view on top of the view stack (`ui.views`, never empty: the agents view is at its bottom). */
export const topView = (env: KeyEnv): string | undefined => env.ui.views[env.ui.views.length - 1];

export function say(env: KeyEnv, text: string, kind: "error" | "info" = "info"): void {
  env.dispatch({ type: "status", status: { text, kind } });
}

/** A handler that opens (or closes) a dialog: keys typed ahead of it are dropped. */
export const opensDialog = (run: (env: KeyEnv) => void) => (env: KeyEnv) => {
  run(env);
  return "dialog" as const;
};

/** The dialog closes and the status line says what happened (the daemon took it, or refused it). */
export function closeSaying(env: KeyEnv, text: string, kind: "error" | "info" = "info"): void {
  env.dispatch({ type: "close" });
  say(env, text, kind);
}

/**
 * A form's action failed: the dialog stays open with the error under its fields. A mistake in
 * what was typed (`FormError`) shows there only; a refusal also in the status bar.
 */
export function formFailed(env: KeyEnv, err: unknown): void {
  env.dispatch({ type: "busy", busy: false });
  const msg = errorMessage(err);
  env.dispatch({ type: "form", action: { type: "error", message: msg } });
  if (!(err instanceof FormError)) say(env, msg, "error");
}

export const up = (run: Binding["run"]): Binding => ({ command: "up", keys: [named("upArrow", "↑"), ch("k")], help: "select the agent above / scroll up", run });
export const down = (run: Binding["run"]): Binding => ({ command: "down", keys: [named("downArrow", "↓"), ch("j")], help: "select the agent below / scroll down", run });
export const pageUp = (run: Binding["run"]): Binding => ({ command: "pageUp", keys: [named("pageUp", "PgUp")], help: "scroll output up a page (stops following)", run });
export const pageDown = (run: Binding["run"]): Binding => ({ command: "pageDown", keys: [named("pageDown", "PgDn")], help: "scroll output down a page", run });
export const home = (run: Binding["run"]): Binding => ({ command: "home", keys: [named("home", "Home")], help: "jump to the start of the output", run });
export const end = (run: Binding["run"]): Binding => ({ command: "end", keys: [named("end", "End"), ch("G")], help: "jump to the end and follow new output", run });

export const back = (run: Binding["run"]): Binding => ({ command: "back", keys: [named("escape", "esc")], help: "back to the list", run });

export const help: Binding = {
  command: "help",
  keys: [ch("?")],
  help: "this help",
  hint: "help",
  run: opensDialog((env) => env.dispatch({ type: "open", modal: { kind: "help", top: 0 } })),
};

export const quit: Binding = {
  command: "quit",
  keys: [ch("q"), ctrl("c")],
  help: "quit the dashboard (agents keep running)",
  hint: "quit",
  run: opensDialog((env) => env.quit()),
};

/** ctrl+c quits from dialogs and the filter too, where q is typing. */
export const quitFromDialog: Binding = { ...quit, keys: [ctrl("c")], help: "quit", hint: undefined };

/** esc cancels every dialog, forms and confirmations alike. */
export const cancel: Binding = { command: "cancel", keys: [named("escape", "esc")], help: "cancel", run: opensDialog((env) => env.dispatch({ type: "close" })) };

export type ScrollHow = "up" | "down" | "pageUp" | "pageDown" | "home" | "end";

/** The first line a pane shows after scrolling `how`, `page` lines a page, from `top` (at most `max`). */
export function scrolledTop(how: ScrollHow, top: number, max: number, page: number): number {
  const from = Math.min(top, max);
  const next = how === "home" ? 0 : how === "end" ? max : from + (how === "up" ? -1 : how === "down" ? 1 : how === "pageUp" ? -page : page);
  return Math.max(0, Math.min(max, next));
}
