import { useRef } from "react";
import { useInput, usePaste } from "ink";
import type { KeyEnv } from "./controllers.ts";
import { handleInput, handlePaste } from "./handle-input.ts";

/** Keys and pastes go to the controllers; `envNow` gives each key the state as it is then. */
export function useKeys(envNow: () => KeyEnv): void {
  const ref = useRef(envNow);
  ref.current = envNow;
  useInput((input, key) => handleInput(() => ref.current(), input, key));
  // Bracketed paste: pasted text arrives in one piece, its newlines never taken for Enter.
  usePaste((text) => handlePaste(ref.current(), text));
}
