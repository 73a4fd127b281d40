import type { Dispatch } from "react";
import type { Key } from "ink";
import type { Agent } from "../protocol/entities.ts";
import { errorMessage } from "../errors.ts";
import { FormError, newAgentForm, providerOptions, questionsModal, resumeForm, resumeMessage, spawnRequest, submitQuestions } from "./actions.ts";
import type { Feed } from "./feed.ts";
import { resolveKey, type Command, type KeyContext } from "./keys.ts";
import { isLastField, type FormAction } from "./state/form.ts";
import { FOLLOW, scrollBy, scrollHome, type LineSource, type Viewport } from "./state/scroll.ts";
import type { UiAction, UiState } from "./state/ui.ts";
import type { EntitiesState } from "./state/entities.ts";
import type { DashboardDeps } from "./types.ts";
import { isLive } from "../protocol/status.ts";

export interface KeyEnv {
  ui: UiState;
  dispatch: Dispatch<UiAction>;
  entities: EntitiesState;
  feed: Feed;
  deps: DashboardDeps;
  /** Ids of the list as shown, in order. */
  ids: readonly string[];
  selected: Agent | null;
  /** The selected agent's output, read when a key needs it. */
  output: () => LineSource | null;
  viewport: Viewport;
  diffRows: number;
  helpMax: number;
  quit: () => void;
}

/** Where the keyboard is, from what is on screen. */
export function keyContext(ui: UiState): KeyContext {
  switch (ui.modal.kind) {
    case "help":
      return "help";
    case "stop":
      return "confirm";
    case "questions":
    case "new":
    case "resume":
      return "field";
    case "none":
      break;
  }
  if (ui.filter.editing) return "filter";
  if (ui.view === "diff") return "diff";
  if (ui.view === "phases") return "phases";
  return ui.pane;
}

// Editing keys a text field takes when no command claims them.
function fieldEdit(input: string, key: Key): FormAction | null {
  if (key.leftArrow) return { type: "left" };
  if (key.rightArrow) return { type: "right" };
  if (key.upArrow) return { type: "up" };
  if (key.downArrow) return { type: "down" };
  if (key.home) return { type: "home" };
  if (key.end) return { type: "end" };
  if (key.backspace) return { type: "backspace" };
  if (key.delete) return { type: "delete" };
  if (key.ctrl || key.meta || key.escape || key.tab || key.return) return null;
  // eslint-disable-next-line no-control-regex
  const text = input.replace(/[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]/g, "");
  return text ? { type: "insert", text } : null;
}

/** The one keypress handler: resolves the key through the table, then runs the command. */
/**
 * Keys typed faster than one read (key repeat, typing before the first frame) arrive as one
 * input: outside text fields each character is its own command. Null when `input` is one key.
 */
export function splitKeys(context: KeyContext, input: string, key: Key): string[] | null {
  if (context === "field" || context === "filter" || key.ctrl || key.meta) return null;
  return input.length > 1 && /^[\x20-\x7e]+$/.test(input) ? [...input] : null;
}

export function handleKey(env: KeyEnv, input: string, key: Key): void {
  const context = keyContext(env.ui);
  const cmd = resolveKey(context, input, key);
  if (cmd) {
    runCommand(env, context, cmd);
    return;
  }
  if (context === "field") {
    const m = env.ui.modal;
    const f = (m.kind === "questions" || m.kind === "new" || m.kind === "resume") && !m.busy ? m.form.fields[m.form.active] : undefined;
    if (!f) return;
    let action = fieldEdit(input, key);
    if (action && f.kind !== "text" && action.type === "insert") action = action.text === " " ? { type: "toggle" } : null;
    if (action) env.dispatch({ type: "form", action });
  } else if (context === "filter") {
    if (key.backspace || key.delete) env.dispatch({ type: "filterBackspace" });
    else if (!key.ctrl && !key.meta && input && !/[\x00-\x1f]/.test(input)) env.dispatch({ type: "filterInput", text: input });
  }
}

function status(env: KeyEnv, text: string, kind: "error" | "info" = "info"): void {
  env.dispatch({ type: "status", status: { text, kind } });
}

function scrollOutput(env: KeyEnv, how: "up" | "down" | "pageUp" | "pageDown" | "home" | "end"): void {
  const src = env.output();
  if (!src) return;
  const vp = env.viewport;
  const page = Math.max(1, vp.height - 1);
  const s = env.ui.scroll;
  const next =
    how === "home" ? scrollHome(src, vp)
    : how === "end" ? FOLLOW
    : scrollBy(src, vp, s, how === "up" ? -1 : how === "down" ? 1 : how === "pageUp" ? -page : page);
  env.dispatch({ type: "scroll", scroll: next });
}

function scrollDiff(env: KeyEnv, how: "up" | "down" | "pageUp" | "pageDown" | "home" | "end"): void {
  const d = env.ui.diff;
  if (!d) return;
  const rows = env.diffRows;
  const max = Math.max(0, (d.lines?.length ?? 0) - rows);
  const top = Math.min(d.top, max);
  const next =
    how === "home" ? 0
    : how === "end" ? max
    : top + (how === "up" ? -1 : how === "down" ? 1 : how === "pageUp" ? -(rows - 1) : rows - 1);
  env.dispatch({ type: "diffScroll", top: Math.max(0, Math.min(max, next)) });
}

function runCommand(env: KeyEnv, context: KeyContext, cmd: Command): void {
  const { ui, dispatch, selected } = env;
  switch (cmd) {
    case "quit":
      env.quit();
      return;
    case "help":
      dispatch({ type: "open", modal: { kind: "help", top: 0 } });
      return;
    case "up":
    case "down":
      if (context === "help") dispatch({ type: "helpScroll", delta: cmd === "up" ? -1 : 1, max: env.helpMax });
      else if (context === "diff") scrollDiff(env, cmd);
      else if (context === "list") dispatch({ type: "move", delta: cmd === "up" ? -1 : 1, ids: env.ids });
      else scrollOutput(env, cmd);
      return;
    case "pageUp":
    case "pageDown":
    case "home":
    case "end":
      if (context === "help") {
        const delta = cmd === "pageUp" ? -10 : cmd === "pageDown" ? 10 : cmd === "home" ? -env.helpMax : env.helpMax;
        dispatch({ type: "helpScroll", delta, max: env.helpMax });
      } else if (context === "diff") scrollDiff(env, cmd);
      else scrollOutput(env, cmd);
      return;
    case "focusOutput":
      dispatch({ type: "pane", pane: "output" });
      return;
    case "back":
      if (context === "help") dispatch({ type: "close" });
      else if (context === "output") dispatch({ type: "pane", pane: "list" });
      else dispatch({ type: "view", view: "agents" });
      return;
    case "cyclePane":
      dispatch({ type: "cyclePane" });
      return;
    case "toggleRaw":
      dispatch({ type: "toggleRaw" });
      status(env, ui.raw ? "rendered output" : "raw output: lines as the CLI wrote them");
      return;
    case "filter":
      dispatch({ type: "filterStart" });
      return;
    case "phases":
      dispatch({ type: "view", view: ui.view === "phases" ? "agents" : "phases" });
      return;
    case "answer": {
      const modal = questionsModal(selected, env.entities);
      if (modal) dispatch({ type: "open", modal });
      else status(env, selected ? `${selected.name} has no questions for you` : "nothing waits for an answer");
      return;
    }
    case "newAgent":
      openNewAgent(env);
      return;
    case "stop":
      if (!selected) return status(env, "no agent selected");
      if (!isLive(selected.status)) return status(env, `${selected.name} is ${selected.status}, not running`);
      dispatch({ type: "open", modal: { kind: "stop", agentId: selected.id, name: selected.name, busy: false } });
      return;
    case "resume":
      if (!selected) return status(env, "no agent selected");
      dispatch({ type: "open", modal: { kind: "resume", agentId: selected.id, name: selected.name, form: resumeForm(), busy: false } });
      return;
    case "diff":
      if (ui.view === "diff") {
        dispatch({ type: "view", view: "agents" });
        return;
      }
      if (!selected) return status(env, "no agent selected");
      dispatch({ type: "diffOpen", agentId: selected.id, title: diffTitle(selected) });
      env.deps.loadDiff(selected).then(
        (lines) => dispatch({ type: "diffLoaded", agentId: selected.id, lines }),
        (err: unknown) => dispatch({ type: "diffFailed", agentId: selected.id, error: errorMessage(err) }),
      );
      return;
    case "cancel":
      if (context === "filter") dispatch({ type: "filterDone", keep: false });
      else dispatch({ type: "close" });
      return;
    case "submit":
      if (context === "filter") {
        dispatch({ type: "filterDone", keep: true });
        return;
      }
      // Enter moves on in a multi-question dialog and submits on the last field; elsewhere it submits.
      if (ui.modal.kind === "questions" && !isLastField(ui.modal.form)) {
        dispatch({ type: "form", action: { type: "next" } });
        return;
      }
      submit(env);
      return;
    case "submitAll":
      submit(env);
      return;
    case "newline": {
      const m = ui.modal;
      if ((m.kind === "questions" || m.kind === "new" || m.kind === "resume") && m.form.fields[m.form.active]?.kind === "text") {
        dispatch({ type: "form", action: { type: "insert", text: "\n" } });
      }
      return;
    }
    case "nextField":
      dispatch({ type: "form", action: { type: "next" } });
      return;
    case "prevField":
      dispatch({ type: "form", action: { type: "prev" } });
      return;
    case "confirm":
      confirmStop(env);
      return;
  }
}

function diffTitle(a: Agent): string {
  return a.branch && a.baseRef ? `Diff · ${a.name} · ${a.baseRef}...${a.branch}` : `Diff · ${a.name} · uncommitted changes in ${a.cwd}`;
}

function openNewAgent(env: KeyEnv): void {
  env.dispatch({ type: "open", modal: { kind: "new", form: newAgentForm(null), busy: false } });
  env.deps.listProviders().then(
    (choices) => env.dispatch({ type: "form", action: { type: "setOptions", id: "provider", options: providerOptions(choices) } }),
    (err: unknown) => status(env, `could not list providers: ${errorMessage(err)}`, "error"),
  );
}

function failed(env: KeyEnv, err: unknown): void {
  env.dispatch({ type: "busy", busy: false });
  const msg = errorMessage(err);
  if (err instanceof FormError) {
    env.dispatch({ type: "form", action: { type: "error", message: msg } });
    return;
  }
  env.dispatch({ type: "form", action: { type: "error", message: msg } });
  status(env, msg, "error");
}

function submit(env: KeyEnv): void {
  const { ui, dispatch, deps, feed } = env;
  const m = ui.modal;
  if ((m.kind !== "questions" && m.kind !== "new" && m.kind !== "resume") || m.busy) return;
  const done = (text: string) => {
    dispatch({ type: "close" });
    status(env, text);
  };
  try {
    switch (m.kind) {
      case "questions": {
        const p = submitQuestions(deps.client, m);
        dispatch({ type: "busy", busy: true });
        p.then((r) => {
          if (r.agent) feed.upsertAgent(r.agent);
          for (const c of r.conversations) feed.upsertConversation(c);
          done(r.agent ? `answered ${r.agent.name}; it resumes` : "answered");
        }, (err: unknown) => failed(env, err));
        return;
      }
      case "new": {
        const req = spawnRequest(m.form, deps.env);
        dispatch({ type: "busy", busy: true });
        deps.client.spawn(req).then((a) => {
          feed.upsertAgent(a);
          dispatch({ type: "select", id: a.id });
          done(`started ${a.name}`);
        }, (err: unknown) => failed(env, err));
        return;
      }
      case "resume": {
        const message = resumeMessage(m.form);
        dispatch({ type: "busy", busy: true });
        deps.client.resume(m.agentId, { message }).then((a) => {
          feed.upsertAgent(a);
          done(`resumed ${a.name}`);
        }, (err: unknown) => failed(env, err));
        return;
      }
    }
  } catch (err) {
    failed(env, err);
  }
}

function confirmStop(env: KeyEnv): void {
  const m = env.ui.modal;
  if (m.kind !== "stop" || m.busy) return;
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.stop(m.agentId).then(
    (a) => {
      env.feed.upsertAgent(a);
      env.dispatch({ type: "close" });
      status(env, `stopped ${a.name}`);
    },
    (err: unknown) => {
      env.dispatch({ type: "close" });
      status(env, errorMessage(err), "error");
    },
  );
}
