import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, BIN_RUNTIME, ROOT, Sandbox } from "../support/sandbox.ts";

let sb: Sandbox;
let home: string;
afterEach(async () => {
  await sb?.close();
  rmSync(home, { recursive: true, force: true });
});

function setup(): Record<string, string> {
  sb = new Sandbox();
  home = mkdtempSync(join(tmpdir(), "troupe-home-"));
  return { HOME: home, CODEX_HOME: join(home, ".codex"), CLAUDE_CONFIG_DIR: "" };
}

/** What is in the home folder but the runtime's own cache (Deno keeps its caches in ~/.cache/deno, whatever program it runs). */
function troupesOwn(dir: string): string[] {
  const entries = readdirSync(dir);
  if (BIN_RUNTIME !== "deno" || !entries.includes(".cache")) return entries;
  expect(readdirSync(join(dir, ".cache"))).toEqual(["deno"]);
  return entries.filter((e) => e !== ".cache");
}

test("--install prints the snippet for each CLI, naming this troupe and a long tool timeout, and writes nothing", async () => {
  const env = setup();
  for (const cli of ["claude", "codex", "gemini"]) {
    const r = await sb.run(["mcp", "--install", cli], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(BIN);
    expect(r.stdout).toMatch(/timeout(_sec)?"?\s*[:=]\s*3900/);
  }
  expect(troupesOwn(home)).toEqual([]);
  const bad = await sb.run(["mcp", "--install", "vim"], { env });
  expect(bad.code).toBe(2);
  expect(bad.stderr.split("\n")[0]).toBe("troupe: --install takes claude, codex, gemini, not 'vim'");
});

test("--write merges troupe into the person's config, keeps every other setting and a backup, and a second write replaces it", async () => {
  const env = setup();
  const settings = join(home, ".gemini", "settings.json");
  Bun.spawnSync(["mkdir", "-p", join(home, ".gemini"), join(home, ".codex")]);
  writeFileSync(settings, JSON.stringify({ theme: "dark", mcpServers: { other: { command: "other" } } }));
  const toml = join(home, ".codex", "config.toml");
  writeFileSync(toml, 'model = "o3"\n\n[mcp_servers.other]\ncommand = "other"\n');

  for (let i = 0; i < 2; i++) {
    expect((await sb.run(["mcp", "--install", "gemini", "--write"], { env })).code).toBe(0);
    expect((await sb.run(["mcp", "--install", "codex", "--write"], { env })).code).toBe(0);
  }
  const g = JSON.parse(readFileSync(settings, "utf8"));
  expect(g).toMatchObject({ theme: "dark", mcpServers: { other: { command: "other" }, troupe: { command: BIN, args: ["mcp"] } } });
  const backups = readdirSync(join(home, ".gemini")).filter((f) => f.startsWith("settings.json.troupe-backup-"));
  expect(backups.length).toBe(2);
  expect(backups.map((b) => readFileSync(join(home, ".gemini", b), "utf8"))).toContain(JSON.stringify({ theme: "dark", mcpServers: { other: { command: "other" } } }));

  const t = readFileSync(toml, "utf8");
  expect(t.match(/\[mcp_servers\.troupe\]/g)?.length).toBe(1);
  expect(t).toContain('[mcp_servers.other]\ncommand = "other"');
  // the real codex reads what was written
  const codex = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "codex"), "mcp", "get", "troupe", "--json"], { env: { ...process.env, ...env } });
  expect(JSON.parse(codex.stdout.toString())).toMatchObject({ transport: { command: BIN, args: ["mcp"] }, tool_timeout_sec: 3900 });
});

test("a config that is not a JSON object is refused in one line and left as it was", async () => {
  const env = setup();
  const file = join(home, ".claude.json");
  writeFileSync(file, "{ not json");
  const r = await sb.run(["mcp", "--install", "claude", "--write"], { env });
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain(`${file} is not a JSON object`);
  expect(readFileSync(file, "utf8")).toBe("{ not json");
  expect(readdirSync(home).filter((f) => f.includes("troupe"))).toEqual([]);
});
