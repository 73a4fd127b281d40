import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

test("an agent gets the spawning client's environment and its own identity, not the daemon's environment", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"], { env: { PROJECT_FLAG: "from-daemon-start", ONLY_IN_DAEMON: "yes" } });
  const cmd = `troupe signal done --result "$PROJECT_FLAG|\${ONLY_IN_DAEMON:-unset}|$TROUPE_AGENT_NAME|$TROUPE_AGENT_ID|$(command -v troupe)|\${TROUPE_AGENT_TOKEN:+token}"`;
  const spawned = await sb.json<{ id: string }>(["spawn", "--no-worktree", "--name", "envy", "--command", cmd, "--json"], { env: { PROJECT_FLAG: "from-spawn" } });
  const a = await waitFor("envy done", async () => {
    const x = (await sb.json<{ status: string; result: string | null }[]>(["ls", "--json"]))[0];
    return x?.status === "done" ? x : undefined;
  });
  const [flag, daemonOnly, name, id, troupe, token] = a.result!.split("|");
  expect({ flag, daemonOnly, name, id, token }).toEqual({ flag: "from-spawn", daemonOnly: "unset", name: "envy", id: spawned.id, token: "token" });
  // `troupe` first on its PATH is this troupe: the binary itself where it is named troupe, else
  // (dist/troupe-deno) the daemon's shim that runs it
  if (basename(BIN) === "troupe") expect(troupe).toBe(BIN);
  else {
    expect(troupe).toBe(join(sb.dir, ".troupe", "bin", "troupe"));
    expect(readFileSync(troupe!, "utf8")).toContain(`exec '${BIN}' "$@"`);
  }
});
