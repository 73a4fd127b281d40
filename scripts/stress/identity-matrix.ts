/**
 * The identity matrix against a live daemon: every route × every caller (the person, the agent
 * itself, its parent and grandparent, its child, an unrelated agent, a forged token), printed
 * as HTTP statuses, with each cell that differs from docs/security.md marked `!`.
 * Exits 1 when any cell differs. Usage: npm run build && bun scripts/stress/identity-matrix.ts [runs=1]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CALLERS, MatrixRun, ROUTES, docsMatrix, formatMatrix } from "../../tests/support/identity-matrix.ts";
import { ROOT, Sandbox } from "../../tests/support/sandbox.ts";

const runs = Number(process.argv[2] ?? 1);
const docs = docsMatrix(readFileSync(join(ROOT, "docs/security.md"), "utf8"));
let differing = 0;
for (let i = 1; i <= runs; i++) {
  const sb = new Sandbox();
  try {
    await sb.run(["daemon", "start"]);
    const t0 = performance.now();
    const mx = await new MatrixRun(sb).run();
    const ms = performance.now() - t0;
    const differs = (route: string, c: (typeof CALLERS)[number]) => docs[route]?.[c] !== mx[route]![c];
    const bad = ROUTES.flatMap((r) => CALLERS.filter((c) => differs(r, c)).map((c) => `${r} as ${c}: ${mx[r]![c]}, docs say ${docs[r]?.[c] ?? "nothing"}`));
    differing += bad.length;
    console.log(`run ${i}: ${ROUTES.length} routes × ${CALLERS.length} callers = ${ROUTES.length * CALLERS.length} calls in ${(ms / 1000).toFixed(1)} s; ${bad.length} differ from docs/security.md`);
    console.log(formatMatrix(mx, differs));
    for (const b of bad) console.log(`  ! ${b}`);
  } finally {
    await sb.close();
  }
}
process.exit(differing ? 1 : 0);
