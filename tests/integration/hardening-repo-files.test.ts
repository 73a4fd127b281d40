import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { within as withinIn } from "../support/within.ts";
import { fileSandbox } from "../support/file-sandbox.ts";

// issue 18, second pass: repository files a branch can carry (and a --no-worktree agent can
// write), read by the daemon at every spawn. Before, a FIFO as .worktreeinclude or
// .troupe/config.json hung every spawn and `health` until kill -9, a link to /dev/zero grew the
// daemon to 11-13.5 GB, a 50 MB file took it to 2 GB. Now each is a one-line refusal, in the
// spawn's answer and the daemon's log, and the daemon keeps answering.

interface Hostile {
  name: string;
  plant(path: string): void;
  reason(path: string): string;
}

const mkfifo = (path: string) => {
  const r = Bun.spawnSync(["mkfifo", path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo: ${r.stderr.toString()}`);
};

const hostile = (limit: string): Hostile[] => [
  { name: "a FIFO", plant: mkfifo, reason: (p) => `${p} is a FIFO (named pipe), not a regular file` },
  { name: "a link to /dev/zero", plant: (p) => symlinkSync("/dev/zero", p), reason: (p) => `${p} leads outside the workspace (to /dev/zero)` },
  {
    name: "a 50 MB file",
    plant: (p) => {
      writeFileSync(p, "");
      truncateSync(p, 50 * 1024 * 1024);
    },
    reason: (p) => `${p} is larger than ${limit}, the limit for this file`,
  },
];

const FILES = [
  { file: ".worktreeinclude", limit: "64 KiB", noWorktreeToo: false },
  { file: ".troupe/config.json", limit: "1 MiB", noWorktreeToo: true },
];

const sb = fileSandbox({ daemon: true });

const within = (args: string[], ms?: number) => withinIn(sb, args, ms);

let n = 0;
describe("a hostile repository file refuses the spawn with one clear line; the daemon keeps serving", () => {
  for (const f of FILES) {
    for (const h of hostile(f.limit)) {
      test(`${h.name} as ${f.file}`, async () => {
        const path = join(sb.dir, f.file);
        mkdirSync(join(path, ".."), { recursive: true });
        h.plant(path);
        try {
          const name = `h${++n}`;
          const r = await within(["spawn", "--name", name, "--command", "troupe signal done", "--json"]);
          expect(r).toMatchObject({ code: 1, stdout: "", stderr: `troupe: ${h.reason(path)}\n` });
          if (f.noWorktreeToo) {
            const plain = await within(["spawn", "--no-worktree", "--name", `${name}-plain`, "--command", "troupe signal done", "--json"]);
            expect(plain).toMatchObject({ code: 1, stderr: `troupe: ${h.reason(path)}\n` });
          }
          // nothing was left behind by the refused spawn, and the daemon answers at once
          expect(JSON.parse((await within(["ls", "--json"])).stdout).map((a: { name: string }) => a.name)).not.toContain(name);
          expect((await within(["daemon", "status", "--json"], 5_000)).code).toBe(0);
          expect(readFileSync(join(sb.dir, ".troupe", "daemon.log"), "utf8")).toContain(h.reason(path));
        } finally {
          rmSync(path, { force: true });
        }
        // fixed, it spawns again
        const ok = await within(["spawn", "--name", `ok${n}`, "--command", "troupe signal done", "--json"]);
        expect(ok.code).toBe(0);
      }, 60_000);
    }
  }
});
