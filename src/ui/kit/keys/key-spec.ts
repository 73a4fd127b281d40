import type { Key } from "ink";

/** The flags of Ink's Key that name a key (not a modifier). */
export type NamedKey = "upArrow" | "downArrow" | "leftArrow" | "rightArrow" | "pageUp" | "pageDown" | "home" | "end" | "return" | "escape" | "tab" | "backspace" | "delete";

/** One way to press a binding: a typed character, or a named key; modifiers must match exactly when given. */
export interface KeySpec {
  label: string;
  input?: string;
  named?: NamedKey;
  ctrl?: boolean;
  shift?: boolean;
}

export type KeyInput = Pick<Key, "ctrl" | "shift" | "meta"> & Partial<Record<NamedKey, boolean>>;

/** One key as the controllers see it: what Ink calls input, and its flags. */
export interface KeyPress {
  input: string;
  key: KeyInput;
}

export const ch = (input: string, label = input): KeySpec => ({ label, input });
export const ctrl = (letter: string): KeySpec => ({ label: `ctrl+${letter}`, input: letter, ctrl: true });
export const named = (n: NamedKey, label: string, shift?: boolean): KeySpec => ({ label, named: n, shift });

export function specMatches(spec: KeySpec, input: string, key: KeyInput): boolean {
  if (spec.named) {
    if (!key[spec.named]) return false;
    if (spec.shift !== undefined && Boolean(key.shift) !== spec.shift) return false;
    return !key.ctrl || spec.ctrl === true;
  }
  if (spec.input === undefined || input !== spec.input) return false;
  if (Boolean(key.ctrl) !== Boolean(spec.ctrl)) return false;
  return !key.meta;
}

export function keysLabel(keys: readonly KeySpec[]): string {
  return keys.map((k) => k.label).join("/");
}
