import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProcessRuntime } from "../contract.ts";
import { Deno } from "./api.ts";
import { DENO_BUNDLE_FLAGS, DENO_RUN_FLAGS } from "./flags.ts";
import { whichOn } from "../portable/which.ts";


/** V8's gc(), there when run with --expose-gc (DENO_RUN_FLAGS); `{ type: "minor" }` collects the young generation only. */
const v8gc = (globalThis as { gc?: (opts?: { type: "major" | "minor" }) => void }).gc;

// Set by scripts/build-deno.ts in the bundle it launches: the launcher, relative to the bundle's folder.
declare const TROUPE_DENO_LAUNCHER: string | undefined;

/** `deno compile` runs its modules from a folder of its own (`.../deno-compile-<name>/...`). */
const compiled = (): boolean => Deno.mainModule.includes("/deno-compile-");

export const processRuntime: ProcessRuntime = {
  info: { name: "deno", version: Deno.version.deno },
  which: (bin, PATH) => whichOn(bin, PATH),
  gc: () => v8gc?.(),
  gcYoung: () => v8gc?.({ type: "minor" }),
  // V8 has no call that drops compiled code and hands freed pages back at once (JSC's
  // shrinkFootprintWhenIdle): a full collection once the task returns is what there is. It costs
  // the dashboard the RSS of code compiled for a burst (scripts/bench/report.ts prints its RSS).
  shrink: () => void setTimeout(() => v8gc?.(), 0),
  // Deno's stdin stays stopped after pause(), a listener back or not: its stream still counts the
  // read that was in flight when it paused, so it never asks the handle again. The handle's reads
  // restart here as Node's net.Socket starts them (tryReadStart).
  reclaimStdin: () => {
    const handle = (process.stdin as unknown as { _handle?: { reading?: boolean; readStart?: () => number } })._handle;
    if (handle?.readStart && !handle.reading) {
      handle.reading = true;
      handle.readStart();
    }
  },
  selfCommand: () => {
    if (compiled()) return [Deno.execPath()];
    const main = fileURLToPath(Deno.mainModule);
    // the launcher that runs this bundle: what a person would type (MCP configs, the service unit)
    if (typeof TROUPE_DENO_LAUNCHER === "string") {
      const launcher = resolve(dirname(main), TROUPE_DENO_LAUNCHER);
      if (existsSync(launcher)) return [launcher];
    }
    // from source (`deno run src/main.ts`) the project's package.json resolves packages and #runtime/
    const bundle = main.endsWith(".js") ? DENO_BUNDLE_FLAGS : [];
    return [Deno.execPath(), "run", ...DENO_RUN_FLAGS, ...bundle, main];
  },
  // Bun's variables (its GC timer, mimalloc's scavenger) mean nothing here: Deno's V8 runs no
  // collection on a timer of its own while the process sleeps
  quietEnv: () => ({}),
  // V8 takes its flags from the command line (Deno's --v8-flags), not from the environment
  startEnv: () => ({}),
  // Deno has no execve: restartQuiet then leaves the process as it is, which loses nothing here
  // since dashboardEnv() (quietEnv() and startEnv()) is empty
  exec: () => false,
};
