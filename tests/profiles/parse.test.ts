import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseClaudeAgent, parseProfile } from "../../src/profiles/parse.ts";
import { ProfileCatalog } from "../../src/profiles/catalog.ts";
import { withProfile } from "../../src/profiles/resolve.ts";
import { SpawnRequestSchema } from "../../src/protocol/api-agents.ts";
import { trust } from "../../src/trust.ts";

test("a profile: front matter fields, the body as instructions, the name from the file when unset", () => {
  const p = parseProfile("/r/.troupe/profiles/reviewer.md", "---\nprovider: claude\nmodel: sonnet\npermissions: plan\nallowedTools: [Read, Grep]\nbudget: 2.5\n---\nYou review diffs.\n", "repository");
  expect(p).toMatchObject({ name: "reviewer", provider: "claude", model: "sonnet", permissions: "plan", allowedTools: ["Read", "Grep"], budget: 2.5, instructions: "You review diffs.", source: "repository" });
  expect(parseProfile("/u/x.md", "Just instructions.", "user")).toMatchObject({ name: "x", provider: null, instructions: "Just instructions." });
});

test("a broken profile is refused in one line with the file, the field and the reason", () => {
  const f = "/r/.troupe/profiles/bad.md";
  expect(() => parseProfile(f, "---\npermissions: all\n---\nx", "repository")).toThrow(/^\/r\/\.troupe\/profiles\/bad\.md: permissions: /);
  expect(() => parseProfile(f, "---\nprovider: nope\n---\nx", "repository")).toThrow(`${f}: provider: unknown provider 'nope'`);
  expect(() => parseProfile(f, "---\nbudget: -1\n---\n", "repository")).toThrow(`${f}: budget: `);
  expect(() => parseProfile(f, "---\nprovider: codex\nmcpServers: {db: {command: x}}\n---\n", "repository")).toThrow(`${f}: mcpServers: only the claude provider`);
  expect(() => parseProfile(f, "---\nmodel: [\n---\n", "repository")).toThrow(`${f}: front matter is not valid YAML`);
  expect(() => parseProfile(f, "---\nmodel: a\n", "repository")).toThrow("never closed");
  expect(() => parseProfile("/r/Bad Name.md", "x", "repository")).toThrow("name: 'Bad Name'");
  for (const text of ["---\npermissions: all\n---\nx", "---\nprovider: nope\n---\n"]) {
    try {
      parseProfile(f, text, "repository");
    } catch (err) {
      expect((err as Error).message).not.toContain("\n");
    }
  }
});

test("Claude Code's subagent files: tools as a comma list, model inherit as none, always claude", () => {
  const p = parseClaudeAgent("/r/.claude/agents/code-reviewer.md", "---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep, Glob\nmodel: inherit\n---\nYou are a senior reviewer.\n");
  expect(p).toMatchObject({ name: "code-reviewer", description: "Reviews code", provider: "claude", model: null, allowedTools: ["Read", "Grep", "Glob"], instructions: "You are a senior reviewer.", source: "claude" });
  expect(parseClaudeAgent("/a.md", "---\nname: a\nmodel: haiku\n---\n")).toMatchObject({ model: "haiku", allowedTools: null });
  expect(() => parseClaudeAgent("/a.md", "no front matter")).toThrow("/a.md: name: ");
});

const req = (r: Record<string, unknown>) => SpawnRequestSchema.parse({ prompt: "do it", ...r });

test("precedence: the request's own fields over the profile's (workspace config comes after, at the spawn)", () => {
  const p = parseProfile("/p/r.md", "---\nprovider: claude\nmodel: opus\npermissions: plan\nallowedTools: [Read]\n---\nRole.", "repository");
  const plain = withProfile(req({ profile: "r" }), p);
  expect(plain.req).toMatchObject({ provider: "claude", model: "opus", permissions: "plan" });
  expect(plain.role).toEqual({ profile: "r", instructions: "Role.", allowedTools: ["Read"] });
  const own = withProfile(req({ profile: "r", model: "haiku", permissions: "edits" }), p);
  expect(own.req).toMatchObject({ provider: "claude", model: "haiku", permissions: "edits" });
  const budget = parseProfile("/p/b.md", "---\nprovider: codex\nbudget: 4\n---\n", "repository");
  expect(withProfile(req({ profile: "b" }), budget).req.budgetUsd).toBe(4);
  expect(withProfile(req({ profile: "b", budgetUsd: 1 }), budget).req.budgetUsd).toBe(1);
  // another provider keeps the role, not the profile's model or tools
  const other = withProfile(req({ profile: "r", provider: "codex" }), p);
  expect(other.req.model).toBeUndefined();
  expect(other.role).toEqual({ profile: "r", instructions: "Role." });
  expect(() => withProfile(req({ profile: "x" }), parseProfile("/p/x.md", "Role.", "user"))).toThrow("names no provider");
});

let dir = "";
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

test("the catalog: repository first, then Claude's, then the user's; broken files listed; untrusted mcpServers refused until trusted", () => {
  dir = mkdtempSync(join(tmpdir(), "profiles-"));
  const root = join(dir, "repo");
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, "config"), XDG_STATE_HOME: join(dir, "state") };
  mkdirSync(join(root, ".troupe", "profiles"), { recursive: true });
  mkdirSync(join(root, ".claude", "agents"), { recursive: true });
  mkdirSync(join(env.XDG_CONFIG_HOME, "troupe", "profiles"), { recursive: true });
  writeFileSync(join(root, ".troupe", "profiles", "reviewer.md"), "---\nprovider: claude\n---\nrepo reviewer");
  writeFileSync(join(root, ".troupe", "profiles", "db.md"), "---\nprovider: claude\nmcpServers:\n  pg: {command: pg-mcp, args: [--ro]}\n---\ndb");
  writeFileSync(join(root, ".troupe", "profiles", "broken.md"), "---\nmode: sleep\n---\n");
  writeFileSync(join(root, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\n---\nclaude reviewer");
  writeFileSync(join(env.XDG_CONFIG_HOME, "troupe", "profiles", "mine.md"), "---\nprovider: codex\n---\nmine");
  const c = new ProfileCatalog(root, env);
  const all = c.read();
  expect(all.profiles.map((p) => `${p.name}:${p.source}`).sort()).toEqual(["db:repository", "mine:user", "reviewer:repository"]);
  expect(all.shadowed).toEqual([{ name: "reviewer", file: join(root, ".claude", "agents", "reviewer.md"), by: join(root, ".troupe", "profiles", "reviewer.md") }]);
  expect(all.broken).toHaveLength(1);
  expect(all.broken[0]!.error).toStartWith(`${join(root, ".troupe", "profiles", "broken.md")}: mode: `);
  expect(() => c.get("broken")).toThrow("profile 'broken' is broken: ");
  expect(() => c.get("nope")).toThrow("no profile 'nope'");
  const db = c.get("db");
  expect(db.trusted).toBe(false);
  expect(() => withProfile(req({ profile: "db" }), db)).toThrow("troupe trust");
  trust(db.file, env);
  expect(c.get("db").trusted).toBe(true);
  expect(withProfile(req({ profile: "db" }), c.get("db")).role.mcpServers).toEqual({ pg: { command: "pg-mcp", args: ["--ro"] } });
});

test("profile files are untrusted input: too large, a FIFO or a link out of the folder is refused, not read", () => {
  dir = mkdtempSync(join(tmpdir(), "profiles-"));
  const root = join(dir, "repo");
  const pdir = join(root, ".troupe", "profiles");
  mkdirSync(pdir, { recursive: true });
  writeFileSync(join(pdir, "big.md"), "x".repeat(65 * 1024));
  Bun.spawnSync(["mkfifo", join(pdir, "fifo.md")]);
  writeFileSync(join(dir, "outside.md"), "secret");
  Bun.spawnSync(["ln", "-s", join(dir, "outside.md"), join(pdir, "link.md")]);
  const broken = new ProfileCatalog(root, { HOME: dir, XDG_CONFIG_HOME: join(dir, "c") }).read().broken.map((b) => b.error);
  expect(broken).toHaveLength(3);
  expect(broken.join("\n")).toContain("larger than");
  expect(broken.join("\n")).toContain("FIFO");
  expect(broken.join("\n")).toContain("outside");
});
