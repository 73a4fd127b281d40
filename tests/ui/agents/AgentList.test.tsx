import { afterEach, expect, test } from "bun:test";
import { displayWidth } from "../../../src/output/text.ts";
import { FakeClient, makeAgent } from "../helpers/fake-client.ts";
import { renderApp, type Screen } from "../helpers/render.tsx";

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

/** A lead with two workers, one of which started its own, the deepest with a name too long for its column. */
function family() {
  const now = Date.now();
  const lead = makeAgent({ name: "lead", createdAt: now - 100 });
  const w1 = makeAgent({ name: "worker-one", parentId: lead.id, createdAt: now - 90 });
  const w2 = makeAgent({ name: "worker-two", parentId: lead.id, createdAt: now - 80 });
  const deep = makeAgent({ name: "grandchild-with-a-long-name", parentId: w1.id, createdAt: now - 70 });
  const solo = makeAgent({ name: "solo", createdAt: now - 200 });
  return new FakeClient([lead, w1, w2, deep, solo]);
}

/** The list's rows, from the one naming `first` on, as many as `n`. */
function listRows(frame: string, first: string, n: number): string[] {
  const lines = frame.split("\n");
  const at = lines.findIndex((l) => l.includes(first));
  return lines.slice(at, at + n);
}

test("workers show indented under the agent that started them, one line each within 80 columns", async () => {
  screen = await renderApp(family(), { columns: 80, rows: 24 });
  const f = await screen.waitFor("worker-two");
  const rows = listRows(f, "lead", 5);
  // newest first among siblings: worker-two before worker-one; the lead's subtree before the older solo
  expect(rows.map((r) => /(?:[│├└ ]*)(lead|worker-two|worker-one|grandchild|solo)/.exec(r.slice(6))?.[0].trimStart())).toEqual([
    "lead",
    "├ worker-two",
    "└ worker-one",
    "└ grandchild",
    "solo",
  ]);
  // the grandchild is drawn under the last worker: no bar left of its glyph; its name cut to the column
  expect(rows[3]!.slice(6)).toMatch(/^ {2}└ grandchild-… running/);
  for (const r of f.split("\n")) expect(displayWidth(r)).toBeLessThanOrEqual(80);
});

test("ASCII glyphs under an ASCII theme", async () => {
  screen = await renderApp(family(), { columns: 80, rows: 24, theme: { color: false, ascii: true } });
  const f = await screen.waitFor("worker-two");
  const rows = listRows(f, "lead", 4).map((r) => r.slice(6));
  expect(rows[1]).toContain("|-worker-two");
  expect(rows[2]).toContain("`-worker-one");
  expect(rows[3]).toContain("  `-grandchild");
});
