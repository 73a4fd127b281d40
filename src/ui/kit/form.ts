/** Dialog forms as data: text fields (multi-line capable), choices and toggles, edited by a pure reducer. */

/** A mistake in what the person typed: shown in the dialog, which stays open. */
export class FormError extends Error {}

export interface TextField {
  kind: "text";
  id: string;
  label: string;
  value: string;
  /** Index in `value` where typing goes. */
  cursor: number;
  multiline: boolean;
  placeholder?: string;
}

export interface ChoiceOption {
  value: string;
  label: string;
  /** A disabled option is shown (with its note) but cannot be chosen. */
  disabled?: boolean;
  note?: string;
}

export interface ChoiceField {
  kind: "choice";
  id: string;
  label: string;
  options: ChoiceOption[];
  index: number;
}

export interface ToggleField {
  kind: "toggle";
  id: string;
  label: string;
  value: boolean;
}

export type Field = TextField | ChoiceField | ToggleField;

export interface FormState {
  fields: Field[];
  active: number;
  /** Shown under the form, e.g. "answer every question". */
  error: string | null;
}

export type FormAction =
  | { type: "insert"; text: string }
  | { type: "backspace" }
  | { type: "delete" }
  | { type: "left" }
  | { type: "right" }
  | { type: "home" }
  | { type: "end" }
  | { type: "up" }
  | { type: "down" }
  | { type: "next" }
  | { type: "prev" }
  | { type: "focus"; index: number }
  | { type: "toggle" }
  | { type: "error"; message: string | null }
  | { type: "setOptions"; id: string; options: ChoiceOption[] };

export function textField(id: string, label: string, opts: { value?: string; multiline?: boolean; placeholder?: string } = {}): TextField {
  const value = opts.value ?? "";
  return { kind: "text", id, label, value, cursor: value.length, multiline: opts.multiline ?? false, placeholder: opts.placeholder };
}

export function makeForm(fields: Field[]): FormState {
  return { fields, active: 0, error: null };
}

function firstEnabled(options: ChoiceOption[], from: number, step: 1 | -1): number {
  for (let i = 0, idx = from; i < options.length; i++, idx += step) {
    const j = ((idx % options.length) + options.length) % options.length;
    if (!options[j]!.disabled) return j;
  }
  return from;
}

export function choiceField(id: string, label: string, options: ChoiceOption[]): ChoiceField {
  return { kind: "choice", id, label, options, index: options.length ? firstEnabled(options, 0, 1) : 0 };
}

function lineStart(v: string, i: number): number {
  return v.lastIndexOf("\n", i - 1) + 1;
}

function lineEnd(v: string, i: number): number {
  const e = v.indexOf("\n", i);
  return e === -1 ? v.length : e;
}

function editText(f: TextField, action: FormAction): TextField {
  const { value: v, cursor: c } = f;
  switch (action.type) {
    case "insert": {
      let text = action.text.replace(/\r\n?/g, "\n");
      if (!f.multiline) text = text.replace(/\n/g, " ");
      return { ...f, value: v.slice(0, c) + text + v.slice(c), cursor: c + text.length };
    }
    case "backspace":
      return c === 0 ? f : { ...f, value: v.slice(0, c - 1) + v.slice(c), cursor: c - 1 };
    case "delete":
      return c >= v.length ? f : { ...f, value: v.slice(0, c) + v.slice(c + 1) };
    case "left":
      return { ...f, cursor: Math.max(0, c - 1) };
    case "right":
      return { ...f, cursor: Math.min(v.length, c + 1) };
    case "home":
      return { ...f, cursor: lineStart(v, c) };
    case "end":
      return { ...f, cursor: lineEnd(v, c) };
    default:
      return f;
  }
}

/** Where ↑/↓ put the cursor in a multi-line field, or null when there is no line that way (the form moves to another field). */
function verticalMove(f: TextField, dir: "up" | "down"): number | null {
  const { value: v, cursor: c } = f;
  if (!f.multiline) return null;
  const start = lineStart(v, c);
  if (dir === "up") {
    if (start === 0) return null;
    const prevStart = lineStart(v, start - 1);
    return Math.min(prevStart + (c - start), start - 1);
  }
  const end = lineEnd(v, c);
  if (end === v.length) return null;
  const nextStart = end + 1;
  return Math.min(nextStart + (c - start), lineEnd(v, nextStart));
}

function editChoice(f: ChoiceField, action: FormAction): ChoiceField {
  if (!f.options.length) return f;
  switch (action.type) {
    case "left":
    case "up":
      return { ...f, index: firstEnabled(f.options, f.index - 1, -1) };
    case "right":
    case "down":
    case "toggle":
      return { ...f, index: firstEnabled(f.options, f.index + 1, 1) };
    default:
      return f;
  }
}

function editToggle(f: ToggleField, action: FormAction): ToggleField {
  if (action.type === "toggle" || action.type === "left" || action.type === "right") return { ...f, value: !f.value };
  if (action.type === "insert" && action.text === " ") return { ...f, value: !f.value };
  return f;
}

function editField(f: Field, action: FormAction): Field {
  switch (f.kind) {
    case "text":
      return editText(f, action);
    case "choice":
      return editChoice(f, action);
    case "toggle":
      return editToggle(f, action);
  }
}

export function formReducer(state: FormState, action: FormAction): FormState {
  const n = state.fields.length;
  switch (action.type) {
    case "up":
    case "down": {
      // ↑/↓ move between lines of a multi-line field and leave it from its first/last line, as
      // tab/shift+tab do from a single-line field or a toggle; a choice keeps them for its options.
      const f = state.fields[state.active];
      if (f?.kind === "choice") break;
      const cursor = f?.kind === "text" ? verticalMove(f, action.type) : null;
      if (f?.kind !== "text" || cursor === null) return formReducer(state, { type: action.type === "up" ? "prev" : "next" });
      const fields = state.fields.slice();
      fields[state.active] = { ...f, cursor };
      return { ...state, fields };
    }
    case "next":
      return { ...state, active: (state.active + 1) % n };
    case "prev":
      return { ...state, active: (state.active - 1 + n) % n };
    case "focus":
      return { ...state, active: Math.max(0, Math.min(n - 1, action.index)) };
    case "error":
      return { ...state, error: action.message };
    case "setOptions":
      return {
        ...state,
        fields: state.fields.map((f) => (f.kind === "choice" && f.id === action.id ? { ...choiceField(f.id, f.label, action.options) } : f)),
      };
    default:
      break;
  }
  const f = state.fields[state.active];
  if (!f) return state;
  const next = editField(f, action);
  if (next === f) return state;
  const fields = state.fields.slice();
  fields[state.active] = next;
  return { ...state, fields, error: null };
}

/** Field values by id: text as typed, a choice's value, a toggle's boolean. */
export function formValues(state: FormState): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const f of state.fields) {
    if (f.kind === "text") out[f.id] = f.value;
    else if (f.kind === "choice") out[f.id] = f.options[f.index]?.value ?? "";
    else out[f.id] = f.value;
  }
  return out;
}

export function isLastField(state: FormState): boolean {
  return state.active === state.fields.length - 1;
}
