import type { ReactNode } from "react";
import type { KeyEnv } from "../keys/binding.ts";
import type { FormState } from "../form.ts";

/** Where a dialog is drawn: the main area, and the daemon's state as the dashboard holds it. */
export interface DialogArea {
  width: number;
  height: number;
  entities: KeyEnv["entities"];
}

/** An open dialog's state: `ui.modal` when it is neither nothing nor the help. */
export type OpenDialog = Exclude<KeyEnv["ui"]["modal"], { kind: "none" } | { kind: "help" }>;

/** The spec of an open dialog, from the shell's table of them all (`shell/keys/dialog-registry.ts`). */
export type DialogOf = <M extends OpenDialog>(modal: M) => DialogSpec<M>;

/**
 * One dialog, declared once beside its feature: the keys it takes (a form's fields, or a yes/no
 * question), how it is drawn and what its enter (or y) does. Its state is its modal (`ui.modal`,
 * declared in the feature); the binding that opens it is the feature's.
 */
export interface DialogSpec<M extends { busy: boolean }> {
  /** A dialog with a form takes the field keys; one without asks yes or no. */
  keys: M extends { form: FormState } ? "field" : "confirm";
  render: (modal: M, area: DialogArea) => ReactNode;
  /**
   * Enter on a form's last field (or ctrl+s), y or enter on a question; never while it is busy.
   * A form's mistake thrown here (`FormError`) shows in the dialog, which stays open.
   */
  submit: (env: KeyEnv, modal: M) => void;
  /** A form's enter on a field: move on to the next one instead of submitting (default: submit). */
  enter?: (modal: M) => "next" | "submit";
}

/** A feature's dialogs: one spec per modal kind it declares. */
export type DialogsOf<U extends { kind: string; busy: boolean }> = { [K in U["kind"]]: DialogSpec<Extract<U, { kind: K }>> };
