/**
 * The phases view as a person uses it: the compiled dashboard in tmux against a real daemon, an
 * initiative whose phases a plan agent (a shell script through `troupe plan --command`) proposed;
 * the person reviews them with keys, and `troupe phases --json` tells what the daemon holds.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PhaseTree } from "../../src/protocol/work.ts";
import { BIN_RUNTIME, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";

const TEST_MS = 90_000;

const sh = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const phaseFile = (slug: string, lines: string[]) => `printf '%s\\n' ${lines.map(sh).join(" ")} > .troupe/output/phases/${slug}.md`;
/** A plan agent: writes two phase files (api after store), then signals done. */
const PLAN = [
  "mkdir -p .troupe/output/phases",
  phaseFile("store", ["---", "title: Order storage", "dependsOn: []", "---", "Tables for orders."]),
  phaseFile("api", ["---", "title: Order API", "dependsOn: [store]", "---", "Routes over the store."]),
  "troupe signal done --result planned",
].join(" && ");

let sb: Sandbox | null = null;
let term: Terminal | null = null;
afterEach(async () => {
  term?.close();
  await sb?.close();
  term = null;
  sb = null;
});

async function planned(s: Sandbox): Promise<PhaseTree> {
  await s.json(["initiative", "new", "Shop", "--goal", "An online shop.", "--json"]);
  await s.json(["plan", "shop", "--command", PLAN, "--json"]);
  return waitFor("two proposed phases", async () => {
    const t = await s.json<PhaseTree>(["phases", "shop", "--json"]);
    return t.phases.length === 2 && t.phases.every((p) => p.status === "proposed") ? t : undefined;
  }, 30_000);
}

const selectedLine = (screen: string) => screen.split("\n").findIndex((l) => l.includes("›"));

/**
 * Selects the row of `slug`, going down from the top (the initiative): phases proposed in the
 * same millisecond may come in either order, as `troupe phases` lists them.
 */
async function select(t: Terminal, slug: string): Promise<string> {
  const selected = new RegExp(`› +!? +${slug} `);
  t.keys("k", "k", "k");
  await t.waitFor(/› +. +shop /);
  for (let i = 0; i < 3 && !selected.test(t.screen()); i++) {
    const at = selectedLine(t.screen());
    t.keys("j");
    await waitFor("the selection to move", () => selectedLine(t.screen()) !== at || undefined, 5_000);
  }
  return t.waitFor(selected);
}

const statusOf = async (s: Sandbox, slug: string) => (await s.json<PhaseTree>(["phases", "shop", "--json"])).phases.find((p) => p.slug === slug)?.status;

describe.skipIf(!HAVE_TMUX)("phases view in a terminal", () => {
  for (const [cols, rows] of [[120, 36], [80, 24]] as const) {
    test(`${cols}x${rows}: p shows the proposals marked !, y approves one, e edits one in $EDITOR`, async () => {
      sb = new Sandbox();
      await planned(sb);
      // An editor that renames the phase: the dashboard hands it the terminal and comes back.
      const editor = join(sb.runtime, "rename.sh");
      writeFileSync(editor, `#!/bin/sh\nsed -i 's/^title: Order API$/title: Checkout API/' "$1"\n`, { mode: 0o755 });
      term = new Terminal(sb, cols, rows);
      term.type(`EDITOR=${editor} `);
      await term.openDashboard();
      await term.waitFor("2 need"); // the header, cut at 80 columns
      term.keys("p");
      let s = await term.waitFor(/! +store +proposed/);
      expect(s).toMatch(/! +api +proposed +after: store/);
      for (const line of s.split("\n")) expect(line.length).toBeLessThanOrEqual(cols);

      // the first row is the initiative: y there says why it cannot act, and approves nothing
      term.keys("y");
      await term.waitFor("no proposed goal to review");
      await select(term, "store");
      await term.waitFor("Tables for orders.");
      term.keys("y");
      await waitFor("store approved", async () => (await statusOf(sb!, "store")) === "approved");
      s = await term.waitFor(/ store +approved/);
      expect(await statusOf(sb, "api")).toBe("proposed");
      await term.waitFor("1 needs");
      // approved through a daemon on the build's runtime (TROUPE_BIN=dist/troupe-deno: Deno, not Bun)
      expect(await sb.daemonRuntime()).toBe(BIN_RUNTIME);

      // api sorts first now (the proposal waits for the person): e opens the editor, the save goes to the daemon
      await select(term, "api");
      await term.waitFor("Routes over the store.");
      term.keys("e");
      await waitFor("api renamed", async () => (await sb!.json<PhaseTree>(["phases", "shop", "--json"])).phases.find((p) => p.slug === "api")?.title === "Checkout API");
      await term.waitFor("edited shop/api");
      await term.waitFor(/! +api +proposed +after: store · Checkout API/);

      term.keys("q");
      await term.waitFor("dashboard closed");
    }, TEST_MS);
  }
});
