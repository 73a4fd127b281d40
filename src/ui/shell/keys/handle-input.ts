import { CONTROLLERS, findBinding, keyContext, type KeyEnv } from "./controllers.ts";
import { say } from "../../kit/keys/helpers.ts";
import type { KeyInput, KeyPress } from "../../kit/keys/key-spec.ts";
import { keypresses } from "../../kit/keys/keypresses.ts";

/**
 * Runs one key against the state now. Text outside a field or the filter is keys, one per
 * character. Returns false when the keys after it must be dropped (a dialog opened or closed).
 */
function runKey(env: KeyEnv, press: KeyPress): boolean {
  const context = keyContext(env.ui);
  const ctl = CONTROLLERS[context];
  const b = findBinding(context, press.input, press.key);
  if (!b) {
    ctl.typing?.(env, press);
    return true;
  }
  const why = b.disabled?.(env);
  if (why) {
    say(env, why);
    return true;
  }
  return b.run(env) !== "dialog";
}

const shifted = (c: string): KeyInput => ({ ctrl: false, meta: false, shift: /[A-Z]/.test(c) });

/**
 * Handles one input event from Ink: each key in it runs against the state the previous one
 * left (`envNow` reads it afresh), so Enter inside a chunk submits what came before it.
 * Whatever follows a key that opens or closes a dialog is dropped.
 */
export function handleInput(envNow: () => KeyEnv, input: string, key: KeyInput): void {
  const queue = keypresses(input, key);
  while (queue.length) {
    const press = queue.shift()!;
    const env = envNow();
    const ctl = CONTROLLERS[keyContext(env.ui)];
    // Several printable characters where no text is typed: each is its own key.
    if (press.input.length > 1 && !ctl.typing && !press.key.ctrl && !press.key.meta) {
      queue.unshift(...[...press.input].map((c) => ({ input: c, key: shifted(c) })));
      continue;
    }
    if (!runKey(env, press)) return;
  }
}

/** Pasted text (bracketed paste) goes into the field or filter being typed in, as it is; elsewhere nowhere. */
export function handlePaste(env: KeyEnv, text: string): void {
  CONTROLLERS[keyContext(env.ui)].paste?.(env, text);
}
