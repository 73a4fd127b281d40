import type { PhaseTree } from "../../src/protocol/work.ts";
import { sleep } from "../../src/runtime/process.ts";

/** Reads the tree until the initiative is completed (its tree), failing at a failed or blocked task. */
export async function untilCompleted(tree: () => Promise<PhaseTree>): Promise<PhaseTree> {
  for (;;) {
    const t = await tree();
    const stuck = t.phases[0]!.tasks.find((k) => k.status === "failed" || k.status === "blocked");
    if (stuck) throw new Error(`${stuck.slug} ${stuck.status}: ${stuck.reason}`);
    if (t.initiative.status === "completed") return t;
    // each look is a CLI process: not so often that they load the machine being measured
    await sleep(500);
  }
}
