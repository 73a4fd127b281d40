import type { ProcessRuntime } from "../contract.ts";

/**
 * The web page's runtime (src/web/page/, bundled for the browser with the `browser` condition of
 * package.json's imports): it renders what the dashboard renders, so it loads the same modules,
 * but runs no process, starts nothing and keeps no terminal. Every call that would is a no-op or
 * says there is none.
 */
export const processRuntime: ProcessRuntime = {
  info: { name: "browser", version: typeof navigator === "undefined" ? "" : navigator.userAgent },
  which: () => null,
  gc: () => {},
  gcYoung: () => {},
  shrink: () => {},
  reclaimStdin: () => {},
  selfCommand: () => [],
  quietEnv: () => ({}),
  startEnv: () => ({}),
  exec: () => false,
};
