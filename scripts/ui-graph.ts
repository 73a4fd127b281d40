/**
 * src/ui's folders as a graph, from every import of its files (static, type-only, re-export,
 * dynamic; tests/support/imports.ts reads them): the cycles among folders, how many imports lie on
 * one, and which of those run up the layers (kit, mirror, sources, features, shell, entry).
 * tests/ui/structure.test.ts holds the same graph to no cycle.
 * Usage: bun scripts/ui-graph.ts [--list]   (--list: every import on a cycle)
 */
import { fileURLToPath } from "node:url";
import { uiGraph } from "../tests/support/ui-graph.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const g = uiGraph(root);
const pairs = (list: typeof g.imports) => new Set(list.map((i) => `${i.fromFolder} → ${i.toFolder}`)).size;
const folders = new Set(g.imports.flatMap((i) => [i.fromFolder, i.toFolder]));
console.log(`folders: ${folders.size}; imports between folders: ${g.imports.length} (${pairs(g.imports)} folder pairs)`);
console.log(`cycles: ${g.cycles.length}`);
for (const c of g.cycles) console.log(`  ${c.length} folders: ${c.join(", ")}`);
console.log(`imports that lie on a cycle: ${g.onCycle.length} (${pairs(g.onCycle)} folder pairs)`);
console.log(`  of them running up the layers: ${g.up.length} (${pairs(g.up)} folder pairs)`);
for (const p of [...new Set(g.up.map((i) => `${i.fromFolder} → ${i.toFolder}`))].sort()) console.log(`    ${p}`);
const bare = uiGraph(root, ["."]);
console.log(`folders alone (the files at the top of src/ui left out): ${bare.cycles.map((c) => c.length).join(" + ") || 0} folders on cycles; ${pairs(bare.onCycle)} folder pairs (${bare.onCycle.length} imports) on a cycle, ${pairs(bare.up)} (${bare.up.length}) running up`);
if (process.argv.includes("--list")) for (const i of g.onCycle) console.log(`  ${i.from} → ${i.to}`);
