import { afterAll, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { importsOf } from "./support/imports.ts";

/**
 * The layer matrix: which modules each module may import (itself and `errors` always). A module
 * is a folder under src/ (src/daemon/routes counts apart from the rest of the daemon), a file at
 * the top of src/, or providers/. Type-only and dynamic imports count like any other: a layer
 * that knows another's types depends on it. A module missing here fails the test: place it.
 */
const LAYERS: Record<string, readonly string[]> = {
  // the entry point and the people's side: the daemon only through the client
  main: ["cli", "self", "runtime"],
  cli: ["client", "protocol", "output", "providers", "workspace", "lock-file", "trust", "self", "user-config", "remotes", "platforms", "acp", "permissions", "sandbox", "web", "runtime"],
  // the dashboard; its own layers (kit, mirror, features, shell) are held by tests/ui/structure.test.ts
  ui: ["client", "protocol", "output", "providers", "workspace", "runtime", "user-config", "permissions"],
  mcp: ["client", "protocol"],
  web: ["client", "ui", "protocol", "output", "providers", "runtime", "workspace", "remotes", "self", "file-modes"],
  // an ACP agent's runner (troupe acp-run): a client of the daemon, as the MCP server is
  acp: ["client", "protocol", "providers", "permissions"],
  client: ["protocol", "lock-file", "process-info", "self", "workspace", "runtime"],
  // the daemon: its routes are an adapter over the services; the rest hosts them
  "daemon/routes": ["daemon", "services", "protocol"],
  daemon: ["daemon/routes", "services", "store", "events", "protocol", "runtime", "lock-file", "self", "workspace", "workspace-config", "json-config", "file-modes", "user-config"],
  // the services, and the one API over them
  services: ["agents", "live", "accounts", "conversations", "messages", "reviews", "work", "permissions", "profiles", "flows", "notify", "hosts", "publish", "events", "store", "protocol", "self", "workspace", "workspace-config", "user-config", "remotes"],
  // profiles: read (untrusted files, as agents' are), validated, applied to a spawn
  profiles: ["agents", "providers", "protocol", "trust", "front-matter", "guarded-fs"],
  // scheduled flows: a gate command, then a spawn (through a profile or a provider)
  flows: ["agents", "profiles", "providers", "events", "store", "protocol", "runtime", "file-modes"],
  conversations: ["agents", "events", "store", "prompts", "protocol"],
  messages: ["agents", "events", "store", "prompts", "protocol"],
  // messages and questions written into running sessions whose CLI takes input mid-run
  live: ["agents", "events", "store", "providers", "prompts", "output", "protocol"],
  // the person's review of an agent's diff: comments anchored in it, sent as a message
  reviews: ["agents", "messages", "events", "store", "prompts", "protocol"],
  agents: ["events", "store", "git", "providers", "runtime", "protocol", "output", "prompts", "process-info", "workspace", "workspace-config", "json-config", "file-modes", "trust", "user-config", "guarded-fs", "sandbox", "self"],
  // each agent's sandbox (bubblewrap): its settings from the configs, what it holds, its arguments
  sandbox: ["providers", "protocol", "runtime", "workspace", "workspace-config", "json-config", "guarded-fs", "trust", "user-config", "self"],
  // the user's accounts: agents take them through a port (agents/accounts-port.ts) the daemon plugs in
  accounts: ["agents", "events", "store", "providers", "runtime", "protocol", "file-modes"],
  work: ["front-matter", "agents", "conversations", "events", "store", "git", "providers", "runtime", "protocol", "file-modes", "guarded-fs"],
  // notify.command when an agent needs the person: follows the bus, reads the user's config
  notify: ["events", "protocol", "user-config"],
  hosts: ["client", "remotes", "providers", "runtime", "protocol"],
  // a branch pushed with the person's git, its pull request opened through gh or GitHub's API
  publish: ["git", "protocol"],
  permissions: ["agents", "events", "store", "providers", "runtime", "protocol", "user-config"],
  // below the services
  events: ["store", "protocol"],
  store: ["protocol", "runtime"],
  git: ["runtime", "guarded-fs"],
  output: ["providers", "protocol", "runtime"],
  prompts: ["protocol"],
  providers: ["protocol"],
  runtime: [],
  "workspace-config": ["protocol", "json-config"],
  // a JSON config file read against its schema (the workspace's, the user's, the remotes)
  "json-config": ["protocol", "guarded-fs"],
  // the user's own settings (~/.config/troupe/config.json), read like the workspace config
  "user-config": ["protocol", "json-config"],
  "front-matter": [],
  trust: ["guarded-fs"],
  workspace: ["process-info", "lock-file", "runtime", "guarded-fs"],
  // reading, clearing and creating at paths an agent or a branch can shape (links, FIFOs, size)
  "guarded-fs": ["protocol"],
  "lock-file": [],
  "file-modes": [],
  "process-info": [],
  self: ["runtime"],
  // the person's remotes (~/.config/troupe/remotes.json): read by the commands that follow them
  remotes: ["protocol", "json-config"],
  // the platforms troupe ships binaries for (scripts/dist.ts; `troupe remote install` next)
  platforms: [],
  protocol: [],
  errors: [],
};

/** Imports that cross the matrix on purpose, each with its reason. */
const EXCEPTIONS: { from: string; to: string; why: string }[] = [
  { from: "src/cli/daemon.ts", to: "src/daemon/daemon.ts", why: "`troupe daemon run` is the daemon process (loaded lazily)" },
  { from: "src/cli/daemon.ts", to: "src/daemon/claim.ts", why: "`troupe daemon run` takes the workspace's lock before the daemon's code loads, so a loser of a start race loads none of it" },
  { from: "src/cli/dashboard.ts", to: "src/ui/run.tsx", why: "the dashboard command mounts the UI (loaded lazily)" },
  { from: "src/cli/mcp.ts", to: "src/mcp/server.ts", why: "`troupe mcp` serves the MCP adapter (loaded lazily, so no other command loads the SDK)" },
  { from: "providers/index.ts", to: "src/runtime/process.ts", why: "detecting a CLI looks it up on PATH the runtime's way (which), not with a call to one runtime" },
  { from: "src/cli/doctor-checks.ts", to: "src/workspace-config.ts", why: "`troupe doctor` reads the workspace config as the daemon will, to name what is broken before a spawn does" },
];

const ALWAYS = ["errors"];

/** The module a path (relative to the root, no leading ./) belongs to, or null outside src/ and providers/. */
function moduleOf(path: string): string | null {
  const parts = path.split("/");
  if (parts[0] === "providers") return "providers";
  if (parts[0] !== "src" || parts.length < 2) return null;
  if (parts.length === 2) return parts[1]!.replace(/\.tsx?$/, "");
  if (parts[1] === "daemon" && parts[2] === "routes" && parts.length > 3) return "daemon/routes";
  return parts[1]!;
}

/** Each import that the matrix does not allow, as `from → to (from-module → to-module)`. */
function violations(root: string): string[] {
  const out: string[] = [];
  for (const file of new Glob("{src,providers}/**/*.{ts,tsx}").scanSync({ cwd: root })) {
    const from = moduleOf(file);
    if (from === null) continue;
    const allowed = LAYERS[from];
    if (!allowed) {
      out.push(`${file}: module '${from}' is not in the layer matrix`);
      continue;
    }
    for (const target of importsOf(root, file)) {
      const to = moduleOf(target);
      if (to === null || to === from || ALWAYS.includes(to) || allowed.includes(to)) continue;
      if (EXCEPTIONS.some((e) => e.from === file && e.to === target)) continue;
      out.push(`${file} → ${target} (${from} → ${to})`);
    }
  }
  return out;
}

const root = join(import.meta.dir, "..");
const probe = mkdtempSync(join(tmpdir(), "troupe-layers-"));
afterAll(() => rmSync(probe, { recursive: true, force: true }));

function probeFile(path: string, text: string): void {
  mkdirSync(dirname(join(probe, path)), { recursive: true });
  writeFileSync(join(probe, path), text);
}

describe("layer boundaries", () => {
  test("every import in src/ and providers/ follows the layer matrix", () => {
    expect(violations(root)).toEqual([]);
  });

  test("the map's layer table (docs/architecture.md) is this matrix: every module, each with what it may import", () => {
    const doc = readFileSync(join(import.meta.dir, "..", "docs", "architecture.md"), "utf8");
    const section = doc.slice(doc.indexOf("## The layers"), doc.indexOf("\n## ", doc.indexOf("## The layers") + 1));
    const shown = new Map<string, string[]>();
    for (const row of section.split("\n").filter((l) => l.startsWith("| `"))) {
      const [modules, may] = row.split("|").slice(1, 3);
      const names = [...modules!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      const deps = may!.trim() === "nothing of troupe's" ? [] : may!.split(",").map((d) => d.trim());
      for (const m of names) shown.set(m, deps.sort());
    }
    const wanted = new Map(Object.entries(LAYERS).map(([m, may]) => [m, may.filter((d) => d !== "errors").sort()]));
    expect(Object.fromEntries([...shown].sort())).toEqual(Object.fromEntries([...wanted].sort()));
  });

  test("every exception still exists (a stale one would hide nothing and mislead)", () => {
    for (const e of EXCEPTIONS) expect(importsOf(root, e.from)).toContain(e.to);
  });

  test("the check fails on a violating import: static, type-only, re-export or dynamic", () => {
    probeFile("src/daemon/daemon.ts", "export const x = 1;\n");
    probeFile("src/store/agents.ts", "export const y = 1;\n");
    probeFile("providers/claude.ts", "export const z = 1;\n");
    probeFile("src/agents/a.ts", 'import { x } from "../daemon/daemon.ts";\n');
    probeFile("src/agents/b.ts", 'import type { x } from "../daemon/daemon.ts";\n');
    probeFile("src/ui/c.ts", 'export { y } from "../store/agents.ts";\n');
    probeFile("src/cli/d.ts", 'const m = await import(\n  "../daemon/daemon.ts"\n);\n');
    probeFile("src/store/e.ts", 'import { z } from "../../providers/claude.ts";\n');
    probeFile("src/daemon/routes/f.ts", 'import { y } from "../../store/agents.ts";\n');
    probeFile("src/newthing/g.ts", "export const g = 1;\n");
    probeFile("src/agents/ok.ts", 'import { y } from "../store/agents.ts";\nimport { z } from "../../providers/claude.ts";\n');
    expect(violations(probe).sort()).toEqual([
      "src/agents/a.ts → src/daemon/daemon.ts (agents → daemon)",
      "src/agents/b.ts → src/daemon/daemon.ts (agents → daemon)",
      "src/cli/d.ts → src/daemon/daemon.ts (cli → daemon)",
      "src/daemon/routes/f.ts → src/store/agents.ts (daemon/routes → store)",
      "src/newthing/g.ts: module 'newthing' is not in the layer matrix",
      "src/store/e.ts → providers/claude.ts (store → providers)",
      "src/ui/c.ts → src/store/agents.ts (ui → store)",
    ]);
  });

  test("no command but the dashboard loads Ink or React, and it only lazily", () => {
    const pkg = /^\s*import\s+(?!type\s)[^"';]*?from\s+"(ink|react|ink-[^"]*|react-[^"]*)"/m;
    for (const f of new Glob("src/{cli,client,protocol,output,services,daemon,agents,conversations,messages,events,store}/**/*.ts").scanSync({ cwd: root })) {
      expect(`${f}: ${pkg.exec(readFileSync(join(root, f), "utf8"))?.[1] ?? "none"}`).toBe(`${f}: none`);
    }
    expect(readFileSync(join(root, "src/cli/dashboard.ts"), "utf8")).toContain('await import("../ui/run.tsx")');
  });
});
