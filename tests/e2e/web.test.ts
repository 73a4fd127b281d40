/**
 * The web page in a real browser: Playwright (playwright-core) driving Debian's chromium, at a
 * phone's viewport (390 × 844) and a desktop's, against `troupe web` of the compiled binary, a
 * real daemon, shell agents and the real Claude Code CLI against the scripted Messages API.
 * Screenshots are kept in test-artifacts/web/.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import type { Agent } from "../../src/protocol/entities.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";
import { bash, lastToolResult, text, turnIndex } from "../support/fake-anthropic.ts";
import { ScriptedAgents } from "../support/dispatch-agents.ts";
import type { Sandbox } from "../support/sandbox.ts";
import { waitFor } from "../support/sandbox.ts";
import { startWeb, type Web } from "../support/web.ts";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = resolve(import.meta.dirname, "..", "..", "test-artifacts", "web");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const claude = useClaudeTroupe();
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});
afterAll(async () => {
  await browser?.close();
});

/** A sandbox with troupe web on it, and a browser page logged in through the printed link. */
async function loggedIn(viewport = PHONE): Promise<{ sb: Sandbox; web: Web; page: Page; errors: string[] }> {
  const sb = claude.sandbox();
  const web = await startWeb(sb);
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(web.firstLogin);
  await page.click("text=Log in to troupe");
  await page.waitForSelector("header.top");
  return { sb, web, page, errors };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
const agentNamed = async (sb: Sandbox, name: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);
const until = (sb: Sandbox, name: string, ok: (a: Agent) => boolean, what: string) =>
  waitFor(`${name} ${what}`, async () => {
    const a = await agentNamed(sb, name);
    return a && ok(a) ? a : undefined;
  }, 30_000);

test("phone: log in with the printed link; answer a question; output arrives live; a message resumes an ended agent; stop", async () => {
  const { sb, web, page, errors } = await loggedIn();
  try {
    await sb.json(["spawn", "--no-worktree", "--name", "asker", "--command", 'case "$TROUPE_PROMPT" in *again*) troupe signal done --result "resumed with again";; *blue*) troupe signal done --result "got blue";; *) echo asking; troupe signal questions --question "Which color?";; esac', "--json"]);
    await sb.json(["spawn", "--no-worktree", "--name", "sleeper", "--command", "echo sleeping; sleep 120", "--json"]);
    await until(sb, "asker", (a) => a.status === "waiting", "to ask");
    // those that need the person first, under their header, as the dashboard lists them
    await page.waitForSelector('.row.needs[data-agent="asker"]');
    expect(await page.locator(".agents .group").first().textContent()).toBe("Needs you");
    await shot(page, "phone-list");
    await page.click('[data-agent="asker"]');
    await page.fill(".ask textarea", "blue");
    await shot(page, "phone-question");
    await page.click('.ask button[type="submit"]');
    await until(sb, "asker", (a) => a.status === "done" && a.result === "got blue", "answered");

    // an ended agent: a message resumes it
    await page.waitForSelector('.msg button:has-text("Resume")');
    await page.fill(".msg textarea", "again");
    await page.click('.msg button[type="submit"]');
    await until(sb, "asker", (a) => a.result === "resumed with again", "resumed");

    // live: a line the agent prints after the page has it open shows up, with no reload
    const gate = join(sb.exchange, "go");
    await sb.json(["spawn", "--no-worktree", "--name", "talker", "--command", `echo tick-1; while [ ! -f ${gate} ]; do sleep 0.05; done; echo tick-2; troupe signal done`, "--json"]);
    await page.click("button.back");
    await page.click('[data-agent="talker"]');
    await page.waitForSelector('[data-testid="output"] >> text=tick-1');
    expect(await page.locator('[data-testid="output"]').textContent()).not.toContain("tick-2");
    writeFileSync(gate, "");
    await page.waitForSelector('[data-testid="output"] >> text=tick-2');

    await page.click("button.back");
    await page.click('[data-agent="sleeper"]');
    await page.click('.agent-head button:has-text("Stop")');
    await until(sb, "sleeper", (a) => a.status === "stopped", "stopped");
    await page.waitForSelector(".agent-head .st-stopped");
    await shot(page, "phone-stopped");
    expect(errors).toEqual([]);
  } finally {
    await web.stop();
  }
}, 120_000);

test("phone: Claude Code's tool calls allowed and denied on the page; the tool runs, or the model hears the refusal", async () => {
  const { sb, web, page, errors } = await loggedIn();
  try {
    for (const name of ["allowed", "denied"]) {
      claude.scripts.set(name, (req) => {
        const step = turnIndex(req);
        if (step === 0) return [bash(`echo hi-from-${name} > ${join(sb.exchange, name)}`)];
        if (step === 1) {
          const r = lastToolResult(req);
          return [bash(`troupe signal done --result "${r?.isError ? "refused" : "ran"}"`)];
        }
        return [text("Done.")];
      });
      await sb.json(["spawn", "--provider", "claude", "--permissions", "ask", "--allow", "Bash(troupe signal *)", "--name", name, "--prompt", "Run the command.", "--json"]);
    }
    for (const name of ["allowed", "denied"]) {
      await page.click(`[data-agent="${name}"]`);
      const card = page.locator(".perm");
      await card.waitFor();
      expect(await card.textContent()).toContain(`hi-from-${name}`);
      if (name === "allowed") await shot(page, "phone-permission");
      await card.locator(`button:has-text("${name === "allowed" ? "Allow" : "Deny"}")`).click();
      await card.waitFor({ state: "detached" });
      await page.click("button.back");
    }
    expect(await claude.ended("allowed")).toMatchObject({ status: "done", result: "ran" });
    expect(readFileSync(join(sb.exchange, "allowed"), "utf8")).toBe("hi-from-allowed\n");
    expect(await claude.ended("denied")).toMatchObject({ status: "done", result: "refused" });
    expect(() => readFileSync(join(sb.exchange, "denied"))).toThrow();
    expect(errors).toEqual([]);
  } finally {
    await web.stop();
  }
}, 120_000);

test("phone: a new agent started from the page runs (Claude Code), with the web process's environment", async () => {
  const { web, page } = await loggedIn();
  try {
    claude.scripts.set("from-web", (req) => (turnIndex(req) === 0 ? [bash('troupe signal done --result "made on the web"')] : [text("Done.")]));
    await page.click('button.tab:has-text("New")');
    await page.selectOption(".new select", "claude");
    await page.fill(".new textarea", "Say it was made on the web.");
    await page.fill(".new input", "from-web");
    await page.click('.new button[type="submit"]');
    await page.waitForSelector('.agent-head h2:has-text("from-web")');
    expect(await claude.ended("from-web")).toMatchObject({ status: "done", result: "made on the web", provider: "claude" });
  } finally {
    await web.stop();
  }
}, 120_000);

test("phone: a phase approved on the page is detailed and its tasks dispatched", async () => {
  const { sb, web, page } = await loggedIn();
  try {
    const agents = new ScriptedAgents(sb.runtime);
    await sb.json(["initiative", "new", "Shop", "--goal", "# Shop\n\nA shop.", "--json"]);
    agents.script("plan", "plan", "mkdir -p .troupe/output/phases\nprintf '%s' '---\ntitle: Phase core\ndependsOn: []\n---\nDo core.\n' > .troupe/output/phases/core.md");
    agents.detail("core", { a: { title: "Task a" } });
    agents.commits("a", "a.txt", "a");
    await sb.json(["plan", "shop", "--command", agents.command, "--json"]);
    await waitFor("the proposed phase", async () => (await sb.json<{ phases: { status: string }[] }>(["phases", "shop", "--json"])).phases[0]?.status === "proposed");
    // dispatch is on before the approval: the approval is what lets it go
    await sb.json(["dispatch", "shop", "--concurrency", "1", "--command", agents.command, "--json"]);
    await page.click('button.tab:has-text("Work")');
    const phase = page.locator('[data-work="core"]');
    await phase.locator('button:has-text("Approve")').click();
    await page.waitForSelector('[data-work="a"] .st-completed', { timeout: 60_000 });
    await shot(page, "phone-work");
    expect(agents.runs().sort()).toEqual(["detail core", "execute a", "plan plan"]);
  } finally {
    await web.stop();
  }
}, 120_000);

test("desktop: the diff of an agent's branch, a comment on a line sent to it as one review", async () => {
  const { sb, web, page } = await loggedIn(DESKTOP);
  try {
    const heard = join(sb.exchange, "heard");
    await sb.json(["spawn", "--name", "coder", "--command", `if [ -f hi.txt ]; then printf '%s' "$TROUPE_PROMPT" > ${heard}; else echo hi > hi.txt && git add hi.txt && git commit -qm hi; fi; troupe signal done --result ok`, "--json"]);
    await until(sb, "coder", (a) => a.status === "done", "done");
    await page.click('[data-agent="coder"]');
    // a desktop shows the list beside the agent
    expect(await page.locator(".agents").isVisible()).toBe(true);
    await page.click('.agent-head button:has-text("Diff")');
    await page.click('[data-testid="diff"] .d-add:has-text("+hi")');
    await page.fill('[data-testid="diff"] textarea', "why hi?");
    await page.click('[data-testid="diff"] button:has-text("Comment")');
    await page.waitForSelector('.comment:has-text("why hi?")');
    await shot(page, "desktop-diff");
    await page.click('button:has-text("Send 1 comment to coder")');
    await waitFor("the review to reach coder", async () => {
      try {
        return readFileSync(heard, "utf8").includes("why hi?");
      } catch {
        return false;
      }
    }, 30_000);
    expect(readFileSync(heard, "utf8")).toContain("hi.txt");
  } finally {
    await web.stop();
  }
}, 120_000);

test("phone: while the page is open and not in front, what newly needs the person is a browser notification", async () => {
  const sb = claude.sandbox();
  const web = await startWeb(sb);
  try {
    const context = await browser.newContext({ viewport: PHONE });
    // headless chromium shows no notification and is always in front: both as a phone in a pocket has them
    await context.addInitScript(`
      Object.defineProperty(document, "visibilityState", { get: () => "hidden" });
      window.shown = [];
      window.Notification = class { static permission = "default"; static async requestPermission() { window.Notification.permission = "granted"; return "granted"; } constructor(title, opts) { window.shown.push(title + " | " + opts.body); } };
    `);
    const page = await context.newPage();
    await page.goto(web.firstLogin);
    await page.click("text=Log in to troupe");
    await page.click('button.tab:has-text("Notify")');
    await page.waitForSelector('button.tab:has-text("Notify")', { state: "detached" });
    await sb.json(["spawn", "--no-worktree", "--name", "pinger", "--command", 'troupe signal questions --question "Deploy now?"', "--json"]);
    await waitFor("the notification", async () => ((await page.evaluate("window.shown")) as string[]).length > 0, 30_000);
    expect(await page.evaluate("window.shown")).toEqual(["pinger needs you | Deploy now?"]);
  } finally {
    await web.stop();
  }
}, 60_000);
