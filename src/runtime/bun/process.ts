import { edenGC } from "bun:jsc";
import type { ProcessRuntime } from "../contract.ts";

/** True inside the executable `bun build --compile` made (its modules live under /$bunfs/). */
const compiled = (): boolean => import.meta.url.includes("$bunfs") || (process.argv[1] ?? "").startsWith("/$bunfs/");

export const processRuntime: ProcessRuntime = {
  info: { name: "bun", version: Bun.version },
  which: (bin, PATH) => Bun.which(bin, { PATH }),
  gc: () => Bun.gc(true),
  gcYoung: () => void edenGC(),
  // JSC's VM::shrinkFootprintWhenIdle: deletes all code, collects in full, releases free malloc pages
  shrink: () => Bun.shrink(),
  // Bun's stdin reads again once Ink adds its listener back
  reclaimStdin: () => {},
  selfCommand: () => (compiled() ? [process.execPath] : [process.execPath, Bun.main]),
  // Bun's GC timer wakes an idle process once a second (slowing to 30 s only once the heap stops
  // changing) and each tick wakes JSC's helper threads; collections still run on allocation.
  // mimalloc's scavenger thread is woken by every other thread going idle; without it a thread
  // purges its own freed pages (daemon ingest CPU and RSS measured unchanged)
  quietEnv: () => ({ BUN_GC_TIMER_DISABLE: "1", MIMALLOC_SCAVENGER: "0" }),
  // JSC's thresholds (its execution counters) before a function gets the baseline JIT (500) and
  // the optimizing one, DFG (1,000): the dashboard's start runs zod's schema builders and React's
  // first render that many times and then seldom again, and compiling them, on JSC's compiler
  // threads, cost ~25 % of its first frame's CPU. What runs on (a frame's work while output
  // streams) still crosses the higher thresholds within seconds.
  startEnv: () => ({ BUN_JSC_thresholdForJITAfterWarmUp: "2000", BUN_JSC_thresholdForOptimizeAfterWarmUp: "20000", BUN_JSC_thresholdForOptimizeAfterLongWarmUp: "20000" }),
  exec: (argv, env) => {
    const [file, ...rest] = argv;
    if (file === undefined || process.execve === undefined) return false;
    try {
      // the compiled binary takes argv[0] as its own name and every later one as the script's
      process.execve(file, [file, ...rest], env);
    } catch {
      // execve(2) failed (a binary replaced meanwhile, E2BIG): this process carries on as it was
    }
    return false;
  },
};
