/**
 * `troupe web` over two sources, in a real browser (chromium through playwright-core): this
 * workspace and a remote one through a real OpenSSH server on 127.0.0.1 (tests/support/sshd.ts),
 * as `troupe web start --remote box` follows them. The host's question answered from the page,
 * its agent stopped, and the link's ssh killed: a banner while it is down, gone once it is back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import type { Agent } from "../../src/protocol/entities.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_SSHD, remoteHost, type Sshd } from "../support/sshd.ts";
import { startWeb } from "../support/web.ts";

let sshd: Sshd;
let local: Sandbox;
let host: Sandbox;
let browser: Browser;
let web: Awaited<ReturnType<typeof startWeb>>;

const hostAgent = async (name: string) => (await host.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);

describe.skipIf(!HAVE_SSHD)("troupe web over a remote", () => {
  beforeAll(async () => {
    local = new Sandbox();
    let env: Record<string, string>;
    ({ host, sshd, env } = await remoteHost(local));
    Object.assign(local.env, env);
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
  });

  afterAll(async () => {
    await web?.stop();
    await browser?.close();
    await local?.close();
    await host?.close();
    sshd?.close();
  });

  test("one list over here and the host; the host's question answered and its agent stopped from the page; a banner while the link is down", async () => {
    await local.json(["spawn", "--no-worktree", "--name", "near", "--command", "sleep 600", "--json"]);
    await host.json(["spawn", "--no-worktree", "--name", "far", "--command", "sleep 600", "--json"]);
    await host.json(["spawn", "--no-worktree", "--name", "asker", "--command", `a=$(troupe ask 'ship it?' --user) && troupe signal done --result "got:$a"`, "--json"]);
    await waitFor("asker's question", async () => (await host.json<unknown[]>(["conversations", "--pending", "--json"])).length > 0);
    web = await startWeb(local, ["--remote", "box"]);
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await page.goto(web.firstLogin);
    await page.click("text=Log in to troupe");
    await page.waitForSelector('[data-agent="far"]', { timeout: 30_000 });
    const groups = await page.locator(".agents .group").allTextContents();
    expect(groups).toEqual(["Needs you", expect.stringContaining(local.dir.split("/").pop()!), `box · 127.0.0.1:${sshd.port}:${host.dir}`]);

    await page.click('[data-agent="asker"]');
    await page.fill(".ask textarea", "yes");
    await page.click('.ask button[type="submit"]');
    await waitFor("asker answered on the host", async () => (await hostAgent("asker"))?.result === "got:yes", 30_000);

    await page.click("button.back");
    await page.click('[data-agent="far"]');
    await page.click('.agent-head button:has-text("Stop")');
    await waitFor("far stopped on the host", async () => (await hostAgent("far"))?.status === "stopped", 30_000);

    // the link's ssh killed: the source is down, said in a banner; the link comes back by itself
    const pids = Bun.spawnSync(["pgrep", "-f", `${sshd.sshCommand}.*proxy --workspace`]).stdout.toString().split("\n").filter(Boolean).map(Number);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, "SIGKILL");
    await page.waitForSelector('.banner.down:has-text("box")', { timeout: 30_000 });
    await page.screenshot({ path: join(import.meta.dirname, "..", "..", "test-artifacts", "web", "phone-remote-down.png") });
    await page.waitForSelector(".banner.down", { state: "detached", timeout: 60_000 });
    expect(await page.locator('[data-agent="near"]').count()).toBe(1);
  }, 180_000);
});
