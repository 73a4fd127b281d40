/**
 * The whole work flow with the real Claude Code CLI, offline: a scripted Messages API plays the
 * model for every agent (told apart by its mode section), a plan agent writes two phases with the
 * Write tool, the person approves them in the compiled dashboard in tmux with `y`, and dispatch
 * runs detail and execute agents until the initiative branch holds every task's commit.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PhaseTree } from "../../src/protocol/work.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import { bash, text, toolUse, turnIndex, userTexts, type ScriptRequest, type Turn } from "../support/fake-anthropic.ts";

/** Phase `api` depends on `store`. */
const PHASES: Record<string, { title: string; dependsOn: string[]; body: string }> = {
  store: { title: "Order storage", dependsOn: [], body: "Tables for orders." },
  api: { title: "Order API", dependsOn: ["store"], body: "Routes over the store." },
};

/** What the model is asked, whichever of system or user text troupe put its mode prompt in. */
const promptOf = (req: ScriptRequest) => [req.system, ...userTexts(req)].join("\n");
const pick = (req: ScriptRequest, pattern: RegExp, what: string): string => {
  const m = promptOf(req).match(pattern);
  if (!m?.[1]) throw new Error(`no ${what} in the prompt`);
  return m[1];
};
/** The absolute input dir (`<worktree>/.troupe/input`) and troupe the prompt names. */
const inputDir = (req: ScriptRequest) => pick(req, /In `([^`]+\/input)`, written by troupe/, "input dir");
const troupe = (req: ScriptRequest) => pick(req, /`([^`\s]+) signal done --result/, "troupe path");
const write = (path: string, content: string) => toolUse("Write", { file_path: path, content });
const frontMatter = (title: string, dependsOn: string[], body: string) => `---\ntitle: ${title}\ndependsOn: [${dependsOn.join(", ")}]\n---\n${body}\n`;
/** The `slug:` of the input file the agent `cat`-ed on its first turn (a tool result of the conversation). */
const slugRead = (req: ScriptRequest) => /^slug: ([a-z0-9-]+)$/m.exec(userTexts(req).find((t) => /^slug: /m.test(t)) ?? "")?.[1] ?? "missing-slug";

function planTurn(req: ScriptRequest): Turn {
  const out = join(dirname(inputDir(req)), "output", "phases");
  const writes = Object.entries(PHASES).map(([slug, p]) => [write(join(out, `${slug}.md`), frontMatter(p.title, p.dependsOn, p.body))]);
  return [...writes, [bash(`${troupe(req)} signal done --result planned`)]][turnIndex(req)] ?? [text("Planned.")];
}

/** Reads phase.md for the slug, writes one task `<phase>-task`, signals done. */
function detailTurn(req: ScriptRequest): Turn {
  const input = inputDir(req);
  const step = turnIndex(req);
  if (step === 0) return [bash(`cat ${join(input, "phase.md")}`)];
  if (step === 1) {
    const slug = slugRead(req);
    return [write(join(dirname(input), "output", "tasks", `${slug}-task.md`), frontMatter(`Build ${slug}`, [], `Write ${slug}-task.txt and commit it.`))];
  }
  if (step === 2) return [bash(`${troupe(req)} signal done --result detailed`)];
  return [text("Detailed.")];
}

/** Reads task.md for the slug, writes `<slug>.txt`, commits it, signals done. */
function executeTurn(req: ScriptRequest): Turn {
  const input = inputDir(req);
  const worktree = dirname(dirname(input));
  const step = turnIndex(req);
  if (step === 0) return [bash(`cat ${join(input, "task.md")}`)];
  const slug = slugRead(req);
  if (step === 1) return [write(join(worktree, `${slug}.txt`), `${slug}\n`)];
  if (step === 2) return [bash(`git add ${slug}.txt && git commit -qm "task ${slug}: ${slug}.txt" && echo committed`)];
  if (step === 3) return [bash(`${troupe(req)} signal done --result "committed ${slug}.txt"`)];
  return [text("Executed.")];
}

const claude = useClaudeTroupe((req) => {
  const p = promptOf(req);
  if (p.includes("# Execute: do your task")) return executeTurn(req);
  if (p.includes("# Detail: break the phase into tasks")) return detailTurn(req);
  if (p.includes("# Plan: propose the phases")) return planTurn(req);
  return [text("no script for this prompt")];
});
let term: Terminal | null = null;

afterEach(() => {
  term?.close();
  term = null;
});

const tree = (s: Sandbox) => s.json<PhaseTree>(["phases", "shop", "--json"]);
const selectedLine = (screen: string) => screen.split("\n").findIndex((l) => l.includes("›"));

/** Selects the row of `slug`, going down from the initiative at the top (proposals may come in either order). */
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

/** What helps when it fails: the daemon log's tail and every agent's log. */
async function diagnostics(s: Sandbox): Promise<string> {
  const out: string[] = [];
  try {
    out.push("--- daemon.log (tail) ---", readFileSync(join(s.dir, ".troupe", "daemon.log"), "utf8").split("\n").slice(-40).join("\n"));
  } catch {
    out.push("--- no daemon.log ---");
  }
  try {
    for (const a of await s.json<{ name: string; status: string; error: string | null }[]>(["ls", "--json"])) {
      out.push(`--- ${a.name} (${a.status}${a.error ? `: ${a.error}` : ""}) ---`, (await s.run(["logs", a.name])).stdout.split("\n").slice(-30).join("\n"));
    }
  } catch (err) {
    out.push(`--- ls failed: ${String(err)} ---`);
  }
  return out.join("\n");
}

async function explained<T>(s: Sandbox, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${await diagnostics(s)}`);
  }
}

describe.skipIf(!HAVE_TMUX)("the work flow with the real Claude Code CLI", () => {
  test("plan writes two phases, y approves them in the dashboard, dispatch details and executes them onto the initiative branch", async () => {
    const s = claude.sandbox();
    await s.json(["initiative", "new", "Shop", "--goal", "An online shop.", "--json"]);
    await s.json(["plan", "shop", "--provider", "claude", "--json"]);
    const proposed = await explained(
      s,
      waitFor("two proposed phases", async () => {
        const t = await tree(s);
        return t.phases.length === 2 && t.phases.every((p) => p.status === "proposed") ? t : undefined;
      }, 60_000),
    );
    expect(proposed.phases.map((p) => [p.slug, p.title]).sort()).toEqual([["api", "Order API"], ["store", "Order storage"]]);

    // the person reviews in the dashboard: both marked !, each approved with y
    term = new Terminal(s);
    await term.openDashboard();
    term.keys("p");
    const screen = await term.waitFor(/! +store +proposed/);
    expect(screen).toMatch(/! +api +proposed +after: store/);
    for (const slug of ["store", "api"]) {
      await select(term, slug);
      term.keys("y");
      await waitFor(`${slug} approved`, async () => (await tree(s)).phases.find((p) => p.slug === slug)?.status === "approved", 15_000);
    }
    term.keys("q");
    await term.waitFor("dashboard closed");
    expect((await tree(s)).phases.map((p) => p.status)).toEqual(["approved", "approved"]);

    await s.json(["dispatch", "shop", "--provider", "claude", "--concurrency", "2", "--json"]);
    // ends at completion or at the first stuck task (waitFor would retry a throw until its deadline)
    const stuck = (t: PhaseTree) => t.phases.flatMap((p) => p.tasks).find((k) => k.status === "failed" || k.status === "blocked");
    const done = await explained(
      s,
      waitFor("the initiative to complete", async () => {
        const t = await tree(s);
        return t.initiative.status === "completed" || stuck(t) ? t : undefined;
      }, 180_000).then((t) => {
        const k = stuck(t);
        if (k) throw new Error(`task ${k.slug} is ${k.status}: ${k.reason}`);
        return t;
      }),
    );
    expect(done.phases.map((p) => [p.slug, p.status, p.tasks.map((k) => [k.slug, k.status])]).sort()).toEqual([
      ["api", "completed", [["api-task", "completed"]]],
      ["store", "completed", [["store-task", "completed"]]],
    ]);
    const subjects = s.git("log", "--format=%s", "troupe-initiative/shop").split("\n");
    for (const slug of ["store-task", "api-task"]) {
      expect(subjects).toContain(`task ${slug}: ${slug}.txt`);
      expect(s.git("show", `troupe-initiative/shop:${slug}.txt`)).toBe(`${slug}\n`);
    }
    // nothing of troupe's own files reached the branch
    expect(s.git("ls-tree", "-r", "--name-only", "troupe-initiative/shop").split("\n").filter((f) => f.startsWith(".troupe"))).toEqual([]);
  }, 300_000);
});
