import { fit } from "../../../output/text.ts";
import { keysLabel, specMatches, type KeyInput } from "../../kit/keys/key-spec.ts";
import { currentView, type UiState } from "../ui-state.ts";
import { confirmController } from "../../kit/dialogs/confirm-controller.ts";
import { diffController } from "../../diff/diff-controller.ts";
import { fieldController } from "../../kit/dialogs/field-controller.ts";
import { filterController } from "../../agents/filter-controller.ts";
import { flowsController } from "../../flows/flows-controller.ts";
import { helpController } from "../../help/help-controller.ts";
import { listController } from "./list-controller.ts";
import { outputController } from "./output-controller.ts";
import { phaseContentController } from "../../phases/content-controller.ts";
import { phasesController } from "../../phases/tree-controller.ts";
import type { Binding, Controller, KeyEnv } from "../../kit/keys/binding.ts";
import { dialogOf } from "./dialog-registry.ts";

export type { Binding, Controller, KeyEnv } from "../../kit/keys/binding.ts";

/** Where the keyboard is: decides which controller's bindings apply. */
export type KeyContext = "list" | "output" | "diff" | "phases" | "phaseContent" | "flows" | "field" | "filter" | "confirm" | "help";

/** One controller per key context: a new view is one more file and one more row here. */
export const CONTROLLERS: Readonly<Record<KeyContext, Controller>> = {
  list: listController,
  output: outputController,
  diff: diffController,
  phases: phasesController,
  phaseContent: phaseContentController,
  flows: flowsController,
  field: fieldController(dialogOf),
  filter: filterController,
  confirm: confirmController(dialogOf),
  help: helpController,
};

/** Where the keyboard is, from what is on screen. */
export function keyContext(ui: UiState): KeyContext {
  const m = ui.modal;
  if (m.kind === "help") return "help";
  // a dialog's fields, or its yes/no
  if (m.kind !== "none") return dialogOf(m).keys;
  if (ui.filter.editing) return "filter";
  const view = currentView(ui);
  if (view === "diff") return "diff";
  if (view === "phases") return ui.phases.pane === "content" ? "phaseContent" : "phases";
  if (view === "flows") return "flows";
  return ui.pane;
}

export function findBinding(context: KeyContext, input: string, key: KeyInput): Binding | null {
  return CONTROLLERS[context].bindings.find((b) => b.keys.some((k) => specMatches(k, input, key))) ?? null;
}

/** The command a keypress means in `context`, or null (a text field then takes it as typing). */
export function resolveKey(context: KeyContext, input: string, key: KeyInput): string | null {
  return findBinding(context, input, key)?.command ?? null;
}

/** Sections of the help overlay, each the bindings of one or more contexts. */
export const HELP_SECTIONS: readonly { title: string; contexts: readonly KeyContext[] }[] = [
  { title: "Agents and output", contexts: ["list", "output"] },
  { title: "Phases (p)", contexts: ["phases", "phaseContent"] },
  { title: "Flows (f)", contexts: ["flows"] },
  { title: "Diff", contexts: ["diff"] },
  { title: "Text fields", contexts: ["field"] },
  { title: "Filter", contexts: ["filter"] },
  { title: "Confirm", contexts: ["confirm"] },
];

const rowId = (b: Binding) => `${b.command}:${keysLabel(b.keys)}`;

/**
 * The bindings of several contexts, each once: one missing from the first goes in before the
 * binding that follows it in its own context, so related keys stay together.
 */
function merged(contexts: readonly KeyContext[]): Binding[] {
  const out: Binding[] = [];
  for (const c of contexts) {
    const own = CONTROLLERS[c].bindings;
    own.forEach((b, i) => {
      if (out.some((o) => rowId(o) === rowId(b))) return;
      const next = own.slice(i + 1).find((n) => out.some((o) => rowId(o) === rowId(n)));
      const at = next ? out.findIndex((o) => rowId(o) === rowId(next)) : out.length;
      out.splice(at, 0, b);
    });
  }
  return out;
}

export function helpRows(contexts: readonly KeyContext[]): { keys: string; help: string }[] {
  return merged(contexts).map((b) => ({ keys: keysLabel(b.keys), help: b.help }));
}

/** "a answer · n new · …" for the status bar, from the same table; with `env`, only the keys that can act now. */
export function hintLine(context: KeyContext, env?: KeyEnv): string {
  return CONTROLLERS[context].bindings.filter((b) => b.hint && !(env && b.disabled?.(env)))
    .map((b) => `${b.keys[0]!.label} ${b.hint}`)
    .join(" · ");
}

/** Lines of the help overlay (`help/HelpOverlay.tsx`): section titles and key rows, from the same tables. */
export function helpLines(): { text: string; title: boolean }[] {
  const keyWidth = 16;
  const lines: { text: string; title: boolean }[] = [];
  for (const s of HELP_SECTIONS) {
    if (lines.length) lines.push({ text: "", title: false });
    lines.push({ text: s.title, title: true });
    for (const r of helpRows(s.contexts)) lines.push({ text: `${fit(r.keys, keyWidth)} ${r.help}`, title: false });
  }
  return lines;
}
