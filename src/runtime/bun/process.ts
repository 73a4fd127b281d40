import { edenGC } from "bun:jsc";
import type { ProcessRuntime, StringWidth } from "../contract.ts";

export const processRuntime: ProcessRuntime = {
  which: (bin, PATH) => Bun.which(bin, { PATH }),
  gc: () => Bun.gc(true),
  gcYoung: () => void edenGC(),
  mainScript: () => Bun.main,
  // Bun's GC timer wakes an idle process once a second (slowing to 30 s only once the heap stops
  // changing) and each tick wakes JSC's helper threads; collections still run on allocation
  quietEnv: () => ({ BUN_GC_TIMER_DISABLE: "1" }),
};

export const stringWidth: StringWidth = (s) => Bun.stringWidth(s);
