import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox } from "../support/sandbox.ts";
import { dirtyPaths, saveAsCommit } from "../../src/git/status.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

test("dirtyPaths names every change (untracked in folders, staged, renamed, odd names) but not .troupe/ or ignored files; saveAsCommit commits exactly them", async () => {
  sb = new Sandbox();
  writeFileSync(join(sb.dir, ".gitignore"), "*.log\n");
  writeFileSync(join(sb.dir, "old name.txt"), "o\n");
  sb.git("add", ".");
  sb.git("commit", "-qm", "base");
  sb.git("mv", "old name.txt", "new\nname.txt");
  writeFileSync(join(sb.dir, "README.md"), "changed\n");
  mkdirSync(join(sb.dir, "dir", "sub"), { recursive: true });
  writeFileSync(join(sb.dir, "dir", "sub", "x.ts"), "x\n");
  writeFileSync(join(sb.dir, "noise.log"), "n\n");
  mkdirSync(join(sb.dir, ".troupe", "output"), { recursive: true });
  writeFileSync(join(sb.dir, ".troupe", "output", "signal.json"), "{}");
  const dirty = await dirtyPaths(sb.dir);
  expect(dirty).toEqual(["README.md", "dir/sub/x.ts", "new\nname.txt", "old name.txt"]);
  const commit = await saveAsCommit(sb.dir, dirty, "saved", {});
  expect(sb.git("log", "-1", "--format=%an <%ae> %s", commit).trim()).toBe("troupe <troupe@localhost> saved");
  expect(await dirtyPaths(sb.dir)).toEqual([]);
  expect(sb.git("show", "--name-status", "--format=", commit).trim().split("\n").sort()).toEqual(["A\tdir/sub/x.ts", "M\tREADME.md", 'R100\told name.txt\t"new\\nname.txt"']);
  // with the agent's own identity when its environment has one
  writeFileSync(join(sb.dir, "README.md"), "again\n");
  const mine = await saveAsCommit(sb.dir, ["README.md"], "mine", { GIT_AUTHOR_NAME: "Agent Person", GIT_AUTHOR_EMAIL: "a@p.invalid" });
  expect(sb.git("log", "-1", "--format=%an <%ae>", mine).trim()).toBe("Agent Person <a@p.invalid>");
});
