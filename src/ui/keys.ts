import type { Key } from "ink";

/** Where the keyboard is: decides which bindings apply. */
export type KeyContext = "list" | "output" | "diff" | "phases" | "field" | "filter" | "confirm" | "help";

export type Command =
  | "up"
  | "down"
  | "pageUp"
  | "pageDown"
  | "home"
  | "end"
  | "focusOutput"
  | "back"
  | "cyclePane"
  | "answer"
  | "newAgent"
  | "stop"
  | "resume"
  | "diff"
  | "toggleRaw"
  | "filter"
  | "phases"
  | "help"
  | "quit"
  | "submit"
  | "submitAll"
  | "newline"
  | "cancel"
  | "nextField"
  | "prevField"
  | "confirm";

/** The flags of Ink's Key that name a key (not a modifier). */
type NamedKey = "upArrow" | "downArrow" | "leftArrow" | "rightArrow" | "pageUp" | "pageDown" | "home" | "end" | "return" | "escape" | "tab" | "backspace" | "delete";

/** One way to press a binding: a typed character, or a named key; modifiers must match exactly when given. */
export interface KeySpec {
  label: string;
  input?: string;
  named?: NamedKey;
  ctrl?: boolean;
  shift?: boolean;
}

export interface Binding {
  command: Command;
  keys: KeySpec[];
  help: string;
  contexts: KeyContext[];
  /** Shown in the status bar's one-line hint. */
  hint?: string;
}

export type KeyInput = Pick<Key, "ctrl" | "shift" | "meta"> & Partial<Record<NamedKey, boolean>>;

const ch = (input: string, label = input): KeySpec => ({ label, input });
const ctrl = (letter: string): KeySpec => ({ label: `ctrl+${letter}`, input: letter, ctrl: true });
const named = (n: NamedKey, label: string, shift?: boolean): KeySpec => ({ label, named: n, shift });

const MAIN: KeyContext[] = ["list", "output"];
const SCREENS: KeyContext[] = ["list", "output", "diff", "phases"];
const SCROLLERS: KeyContext[] = ["list", "output", "diff", "help"];

/** Every key the dashboard knows; the handlers and the `?` overlay both read this table. */
export const KEYS: readonly Binding[] = [
  { command: "up", keys: [named("upArrow", "↑"), ch("k")], help: "select the agent above / scroll up", contexts: ["list", "output", "diff", "help"] },
  { command: "down", keys: [named("downArrow", "↓"), ch("j")], help: "select the agent below / scroll down", contexts: ["list", "output", "diff", "help"] },
  { command: "pageUp", keys: [named("pageUp", "PgUp")], help: "scroll output up a page (stops following)", contexts: SCROLLERS },
  { command: "pageDown", keys: [named("pageDown", "PgDn")], help: "scroll output down a page", contexts: SCROLLERS },
  { command: "home", keys: [named("home", "Home")], help: "jump to the start of the output", contexts: SCROLLERS },
  { command: "end", keys: [named("end", "End"), ch("G")], help: "jump to the end and follow new output", contexts: SCROLLERS },
  { command: "focusOutput", keys: [named("return", "enter")], help: "focus the output pane", contexts: ["list"], hint: "output" },
  { command: "back", keys: [named("escape", "esc")], help: "back to the list", contexts: ["output", "diff", "phases"] },
  { command: "cyclePane", keys: [named("tab", "tab", false)], help: "cycle panes", contexts: MAIN },
  { command: "answer", keys: [ch("a")], help: "answer the agent's questions or user conversation", contexts: MAIN, hint: "answer" },
  { command: "newAgent", keys: [ch("n")], help: "new agent", contexts: MAIN, hint: "new" },
  { command: "stop", keys: [ch("s")], help: "stop the agent (asks first)", contexts: MAIN, hint: "stop" },
  { command: "resume", keys: [ch("r")], help: "resume the agent with a message", contexts: MAIN, hint: "resume" },
  { command: "diff", keys: [ch("d")], help: "diff of the agent's branch against its base", contexts: ["list", "output", "diff"], hint: "diff" },
  { command: "toggleRaw", keys: [ch("v")], help: "raw / rendered output", contexts: MAIN, hint: "raw" },
  { command: "filter", keys: [ch("/")], help: "filter agents by status or text", contexts: MAIN, hint: "filter" },
  { command: "phases", keys: [ch("p")], help: "phases view", contexts: ["list", "output", "phases"] },
  { command: "help", keys: [ch("?")], help: "this help", contexts: SCREENS, hint: "help" },
  { command: "quit", keys: [ch("q"), ctrl("c")], help: "quit the dashboard (agents keep running)", contexts: SCREENS, hint: "quit" },

  { command: "submit", keys: [named("return", "enter")], help: "next field; submit on the last one", contexts: ["field"] },
  { command: "newline", keys: [{ label: "ctrl+j", input: "\n" }], help: "new line in the field", contexts: ["field"] },
  { command: "nextField", keys: [named("tab", "tab", false)], help: "next field", contexts: ["field"] },
  { command: "prevField", keys: [named("tab", "shift+tab", true)], help: "previous field", contexts: ["field"] },
  { command: "submitAll", keys: [ctrl("s")], help: "submit from any field", contexts: ["field"] },
  { command: "cancel", keys: [named("escape", "esc")], help: "cancel", contexts: ["field", "confirm"] },

  { command: "submit", keys: [named("return", "enter")], help: "keep the filter", contexts: ["filter"] },
  { command: "cancel", keys: [named("escape", "esc")], help: "clear the filter", contexts: ["filter"] },

  { command: "confirm", keys: [ch("y"), named("return", "enter")], help: "yes", contexts: ["confirm"] },
  { command: "cancel", keys: [ch("n")], help: "no", contexts: ["confirm"] },

  { command: "back", keys: [named("escape", "esc"), ch("?"), ch("q")], help: "close the help", contexts: ["help"] },
  { command: "quit", keys: [ctrl("c")], help: "quit", contexts: ["field", "filter", "confirm", "help"] },
];

function specMatches(spec: KeySpec, input: string, key: KeyInput): boolean {
  if (spec.named) {
    if (!key[spec.named]) return false;
    if (spec.shift !== undefined && Boolean(key.shift) !== spec.shift) return false;
    return !key.ctrl || spec.ctrl === true;
  }
  if (spec.input === undefined || input !== spec.input) return false;
  if (Boolean(key.ctrl) !== Boolean(spec.ctrl)) return false;
  return !key.meta;
}

/** The command a keypress means in `context`, or null (a text field then takes it as typing). */
export function resolveKey(context: KeyContext, input: string, key: KeyInput): Command | null {
  for (const b of KEYS) {
    if (!b.contexts.includes(context)) continue;
    if (b.keys.some((k) => specMatches(k, input, key))) return b.command;
  }
  return null;
}

export function keyLabel(b: Binding): string {
  return b.keys.map((k) => k.label).join("/");
}

/** Sections of the help overlay, each the bindings of one context. */
export const HELP_SECTIONS: readonly { title: string; context: KeyContext }[] = [
  { title: "Agents and output", context: "output" },
  { title: "Text fields", context: "field" },
  { title: "Filter", context: "filter" },
  { title: "Confirm", context: "confirm" },
];

export function helpRows(context: KeyContext): { keys: string; help: string }[] {
  const rows = new Map<string, { keys: string; help: string }>();
  const contexts: KeyContext[] = context === "output" ? ["list", "output"] : [context];
  for (const b of KEYS) {
    if (!contexts.some((c) => b.contexts.includes(c))) continue;
    const id = `${b.command}:${keyLabel(b)}`;
    if (!rows.has(id)) rows.set(id, { keys: keyLabel(b), help: b.help });
  }
  return [...rows.values()];
}

/** "a answer · n new · …" for the status bar, from the same table. */
export function hintLine(context: KeyContext): string {
  return KEYS.filter((b) => b.hint && b.contexts.includes(context))
    .map((b) => `${b.keys[0]!.label} ${b.hint}`)
    .join(" · ");
}
