import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentEnvStore, moveLegacyEnvs } from "../../../src/agents/files/saved-env.ts";
import { agentEnv, withoutTroupeVars } from "../../../src/agents/processes/session-env.ts";
import { createStore } from "../../../src/store/index.ts";
import { TroupeError } from "../../../src/errors.ts";
import { Logger } from "../../../src/events/log.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

function loadError(envs: AgentEnvStore, id: string): TroupeError {
  try {
    envs.load(id, "brave-otter");
  } catch (err) {
    if (err instanceof TroupeError) return err;
    throw err;
  }
  throw new Error("loaded");
}

describe("an agent's saved environment", () => {
  const envs = new AgentEnvStore(join(dir, "state"));

  test("is a 0600 file in a 0700 folder, written whole, without troupe's own variables", () => {
    const env = { API_KEY: "sk-1", PATH: "/bin", TROUPE_AGENT_TOKEN: "parent", TROUPE_AGENT_ID: "ag_p", TROUPE_SOCKET: "/s", TROUPE_SESSION_MARK: "m" };
    envs.save("ag_1", env);
    expect(envs.load("ag_1", "brave-otter")).toEqual({ API_KEY: "sk-1", PATH: "/bin" });
    expect([mode(envs.path("ag_1")), mode(envs.dir("ag_1"))]).toEqual([0o600, 0o700]);
    expect(readdirSync(envs.dir("ag_1"))).toEqual(["env.json"]); // no temp file left
    envs.save("ag_1", { API_KEY: "sk-2" });
    expect(envs.load("ag_1", "brave-otter")).toEqual({ API_KEY: "sk-2" });
  });

  test("missing, unreadable or damaged is a clear error, never an empty environment", () => {
    expect(loadError(envs, "ag_none").message).toBe(`brave-otter's saved environment ${envs.path("ag_none")} is missing; 'troupe resume brave-otter' from a shell gives it yours`);
    envs.save("ag_2", {});
    writeFileSync(envs.path("ag_2"), "{not json");
    expect(loadError(envs, "ag_2").message).toContain("is not JSON");
    writeFileSync(envs.path("ag_2"), '{"A": 1}');
    expect(loadError(envs, "ag_2").message).toContain("is not an object of strings");
    if (process.getuid?.() !== 0) {
      chmodSync(envs.path("ag_2"), 0o000);
      expect(loadError(envs, "ag_2").message).toContain("cannot be read (");
    }
    expect(loadError(envs, "ag_2").code).toBe("invalid_state");
  });

  test("goes with its agent", () => {
    envs.save("ag_3", { A: "1" });
    envs.remove("ag_3");
    expect(existsSync(envs.dir("ag_3"))).toBe(false);
  });
});

test("an agent's session gets every troupe variable fresh, none of its client's", () => {
  const client = { KEEP: "1", TROUPE_AGENT_TOKEN: "parent", TROUPE_ANYTHING: "x" };
  expect(withoutTroupeVars(client)).toEqual({ KEEP: "1" });
  const env = agentEnv(client, { id: "ag_c", name: "kid", token: "fresh", signalFile: "/s.json", workspace: "/w", socket: "/sock", sessionKey: "k" }, "/bin/troupe-dir");
  expect(env).toMatchObject({ KEEP: "1", TROUPE_AGENT_TOKEN: "fresh", TROUPE_AGENT_ID: "ag_c" });
  expect(env.TROUPE_ANYTHING).toBeUndefined();
});

test("environments an older store kept move to their files once, blanked and scrubbed from the store", () => {
  const state = join(dir, "legacy");
  const path = join(state, "troupe.db");
  const store = createStore(path, { warn: () => {} });
  const agent = (id: string, name: string) => ({
    id, name, provider: "generic", prompt: null, command: "true", model: null, cwd: state,
    worktree: null, branch: null, baseRef: null, permissions: "skip" as const, tokenHash: id, signalFile: join(state, `${id}.json`),
  });
  store.agents.insert(agent("ag_a", "able-ant"));
  store.agents.insert(agent("ag_b", "bold-bee"));
  store.db.query("UPDATE agents SET legacy_env = 1, env_json = ? WHERE id = 'ag_a'").run(JSON.stringify({ KEY: "sk-legacy-a", TROUPE_AGENT_TOKEN: "t" }));
  store.db.query("UPDATE agents SET legacy_env = 1, env_json = '{broken' WHERE id = 'ag_b'").run();
  const envs = new AgentEnvStore(state);
  const log = new Logger(join(state, "daemon.log"));
  moveLegacyEnvs(store, envs, log);
  expect(envs.load("ag_a", "able-ant")).toEqual({ KEY: "sk-legacy-a" });
  expect(existsSync(envs.path("ag_b"))).toBe(false); // damaged: dropped, and a resume says so
  expect(store.db.query("SELECT env_json, legacy_env FROM agents ORDER BY id").all()).toEqual([
    { env_json: "{}", legacy_env: 0 },
    { env_json: "{}", legacy_env: 0 },
  ]);
  expect(readFileSync(path).toString("latin1")).not.toContain("sk-legacy-a");
  expect(readFileSync(join(state, "daemon.log"), "utf8")).toContain("bold-bee's stored environment was damaged");
  envs.save("ag_a", { KEY: "newer" });
  moveLegacyEnvs(store, envs, log); // once: nothing left to move
  expect(envs.load("ag_a", "able-ant")).toEqual({ KEY: "newer" });
  store.close();
});
