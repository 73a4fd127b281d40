import type { FormAction } from "../form.ts";
import type { KeySpec, KeyPress } from "./key-spec.ts";

/**
 * The kit names no feature, so the environment key handlers run in is declared by the shell that
 * builds it (`shell/keys/key-env.ts`) and registered here by declaration merging, as TanStack
 * Router's `Register` lets a library know the app's router type without importing it:
 *   declare module "../../kit/keys/binding.ts" { interface Register { env: ShellEnv } }
 * The kit's own code reads only what `KitEnv` names; a feature reads the registered env.
 * @public (exported for that merge, which knip does not count as a use)
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

/** What the kit's own bindings use: the status line, dialogs, quitting. */
interface KitEnv {
  dispatch: (action: KitAction) => void;
  quit: () => void;
}

/** The actions the kit's bindings and helpers send (the shell's reducer takes them with its own). */
type KitAction =
  | { type: "status"; status: { text: string; kind: "error" | "info" } | null }
  | { type: "open"; modal: { kind: "help"; top: number } }
  | { type: "close" }
  | { type: "busy"; busy: boolean }
  | { type: "form"; action: FormAction };

/** What a key handler sees: the state its predecessor left, and what it may act on (see `Register`). */
export type KeyEnv = Register extends { env: infer E extends KitEnv } ? E : KitEnv;

/**
 * What a handler tells the key loop. `dialog`: it opened or closed a dialog (or sent one), so
 * keys typed ahead of it are dropped: type-ahead must never approve, answer or stop something
 * the person has not seen.
 */
type Outcome = "dialog" | void;

/** Lazygit's `Binding`: the keys, what they do, and when they cannot. */
export interface Binding {
  /** A stable name (tests, the help's de-duplication). */
  command: string;
  keys: readonly KeySpec[];
  help: string;
  /** Shown in the status bar's one-line hint. */
  hint?: string;
  /** Why the binding cannot act now (the status bar says so; the hint line leaves it out), or null. */
  disabled?: (env: KeyEnv) => string | null;
  run: (env: KeyEnv) => Outcome;
}

/** The keys of one context. `typing` takes what no binding claims (text fields, the filter). */
export interface Controller {
  /** The key context it serves (the shell's table names them all). */
  context: string;
  bindings: readonly Binding[];
  typing?: (env: KeyEnv, text: KeyPress) => void;
  /** Takes text as typed or pasted in one piece (a paste never reaches the bindings). */
  paste?: (env: KeyEnv, text: string) => void;
}
