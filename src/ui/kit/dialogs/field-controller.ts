import { ctrl, named, type KeyPress } from "../keys/key-spec.ts";
import type { FormAction, FormState } from "../form.ts";
import { cancel, formFailed, quitFromDialog } from "../keys/helpers.ts";
import type { Binding, Controller, KeyEnv } from "../keys/binding.ts";
import type { DialogOf, OpenDialog } from "./dialog-spec.ts";

/** The dialogs that hold a form. */
type FormModal = Extract<OpenDialog, { form: FormState }>;

function formModal(env: KeyEnv): FormModal | null {
  const m = env.ui.modal;
  return "form" in m ? m : null;
}

/** Sends the open form (its dialog's `submit`); a mistake in it, or a refusal, shows in the dialog. */
function submitForm(dialogOf: DialogOf, env: KeyEnv): void {
  const m = formModal(env);
  if (!m || m.busy) return;
  try {
    dialogOf(m).submit(env, m);
  } catch (err) {
    formFailed(env, err);
  }
}

function edit(env: KeyEnv, action: FormAction): void {
  const m = formModal(env);
  if (m && !m.busy) env.dispatch({ type: "form", action });
}

const submitAll = (dialogOf: DialogOf) => (env: KeyEnv) => {
  submitForm(dialogOf, env);
  return "dialog" as const;
};

const arrow = (command: string, key: "upArrow" | "downArrow", label: string, help: string, action: FormAction): Binding => ({
  command,
  keys: [named(key, label)],
  help,
  run: (env) => edit(env, action),
});

// Editing keys a field takes when no binding claims them.
function fieldEdit({ input, key }: KeyPress): FormAction | null {
  if (key.leftArrow) return { type: "left" };
  if (key.rightArrow) return { type: "right" };
  if (key.home) return { type: "home" };
  if (key.end) return { type: "end" };
  if (key.backspace) return { type: "backspace" };
  if (key.delete) return { type: "delete" };
  if (key.ctrl || key.meta || key.escape || key.tab || key.return) return null;
  // eslint-disable-next-line no-control-regex
  const text = input.replace(/[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]/g, "");
  return text ? { type: "insert", text } : null;
}

/** A dialog's form: text fields, choices and toggles; `dialogOf` finds the open one's spec. */
export const fieldController = (dialogOf: DialogOf): Controller => ({
  context: "field",
  bindings: [
    {
      command: "submit",
      keys: [named("return", "enter")],
      help: "next field; submit on the last one",
      run: (env) => {
        // Enter submits, unless the dialog says it moves on from this field (the next question, a deny's reason).
        const m = formModal(env);
        if (m && dialogOf(m).enter?.(m) === "next") return edit(env, { type: "next" });
        return submitAll(dialogOf)(env);
      },
    },
    {
      command: "newline",
      keys: [{ label: "ctrl+j", input: "\n" }],
      help: "new line in the field",
      run: (env) => {
        const m = formModal(env);
        if (m?.form.fields[m.form.active]?.kind === "text") edit(env, { type: "insert", text: "\n" });
      },
    },
    { command: "nextField", keys: [named("tab", "tab", false)], help: "next field", run: (env) => edit(env, { type: "next" }) },
    { command: "prevField", keys: [named("tab", "shift+tab", true)], help: "previous field", run: (env) => edit(env, { type: "prev" }) },
    arrow("lineUp", "upArrow", "↑", "line above; from the first line, the previous field", { type: "up" }),
    arrow("lineDown", "downArrow", "↓", "line below; from the last line, the next field", { type: "down" }),
    { command: "submitAll", keys: [ctrl("s")], help: "submit from any field", run: submitAll(dialogOf) },
    cancel,
    quitFromDialog,
  ],
  typing: (env, press) => {
    const m = formModal(env);
    const f = m && !m.busy ? m.form.fields[m.form.active] : undefined;
    if (!f) return;
    let action = fieldEdit(press);
    // A choice or a toggle takes no text: space flips it.
    if (action && f.kind !== "text" && action.type === "insert") action = action.text === " " ? { type: "toggle" } : null;
    if (action) edit(env, action);
  },
  paste: (env, text) => {
    const m = formModal(env);
    const f = m?.form.fields[m.form.active];
    // Pasted text goes in as it is (the field makes newlines spaces when it has one line); tabs become spaces.
    if (f?.kind === "text") edit(env, { type: "insert", text: text.replace(/\t/g, "  ") });
  },
});
