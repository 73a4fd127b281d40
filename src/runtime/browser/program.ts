import type { Program } from "../contract.ts";

/** The web page has no process of its own: no arguments, no environment, and nothing to end. */
export const program: Program = {
  args: () => [],
  env: () => undefined,
  cwd: () => "/",
  pid: () => 0,
  platform: () => "browser",
  uid: () => undefined,
  exit: () => {
    throw new Error("the web page has no process to end");
  },
};
