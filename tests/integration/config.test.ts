import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

function writeConfig(text: string) {
  mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
  writeFileSync(join(sb.dir, ".troupe", "config.json"), text);
}

test("per-provider defaults come from .troupe/config.json; flags win; a broken config is a clear error", async () => {
  sb = new Sandbox();
  writeConfig(JSON.stringify({ providers: { generic: { permissions: "plan", model: "house-model" } } }));
  const a = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "cfg", "--command", "troupe signal done", "--json"]);
  expect(a).toMatchObject({ permissions: "plan", model: "house-model" });
  const b = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "flags", "--permissions", "edits", "--model", "mine", "--command", "true", "--json"]);
  expect(b).toMatchObject({ permissions: "edits", model: "mine" });

  writeConfig('{"providers": {"generic": {"permissions": "yolo"}}}');
  const bad = await sb.run(["spawn", "--no-worktree", "--command", "true"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toStartWith(`troupe: ${join(sb.dir, ".troupe", "config.json")}: providers.generic.permissions: `);
  writeConfig("{ not json");
  expect((await sb.run(["spawn", "--no-worktree", "--command", "true"])).stderr).toBe(`troupe: ${join(sb.dir, ".troupe", "config.json")} is not valid JSON\n`);
  // nothing half-made: the refused spawns registered no agent
  await waitFor("cfg done", async () => (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "cfg")?.status === "done");
  expect((await sb.json<Agent[]>(["ls", "--json"])).map((x) => x.name).sort()).toEqual(["cfg", "flags"]);
});
