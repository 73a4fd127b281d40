import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { makeDirGuarded, readGuarded, readGuardedText, removeGuarded, writeGuarded } from "../src/guarded-fs.ts";

// What someone else may leave at a path the daemon reads, clears or creates. Each of the reads
// hung the daemon in open() or read until memory ran out before; each clear or create followed a
// planted link out of the agent's folder.

const base = realpathSync(mkdtempSync(join(tmpdir(), "troupe-guarded-")));
const outside = join(base, "outside");
const root = join(base, "agent", ".troupe");
const out = join(root, "output");
mkdirSync(out, { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(join(outside, "other.json"), JSON.stringify({ status: "done", result: "someone else's" }));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const limits = { maxBytes: 1024 * 1024, root, rootName: "the agent's folder" };
let n = 0;
const fresh = () => join(out, `file-${++n}.json`);

function mkfifo(path: string) {
  const r = Bun.spawnSync(["mkfifo", path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo: ${r.stderr.toString()}`);
}

/** A folder of its own for one test: `<base>/<name>/.troupe` with a victim folder outside it. */
function agentFolder(name: string): { root: string; victim: string } {
  const r = join(base, name, ".troupe");
  const victim = join(base, `${name}-victim`);
  mkdirSync(r, { recursive: true });
  mkdirSync(join(victim, "signal.json"), { recursive: true });
  writeFileSync(join(victim, "signal.json", "precious"), "keep me");
  return { root: r, victim };
}

describe("readGuarded refuses what is not a small regular file inside its folder", () => {
  test("a FIFO is refused at once, without blocking", () => {
    const p = fresh();
    mkfifo(p);
    expect(readGuarded(p, limits)).toEqual({ kind: "refused", reason: `${p} is a FIFO (named pipe), not a regular file` });
  });

  test("a link to /dev/zero is refused (it leads outside), and a device is never opened", () => {
    const p = fresh();
    symlinkSync("/dev/zero", p);
    expect(readGuarded(p, limits)).toEqual({ kind: "refused", reason: `${p} leads outside the agent's folder (to /dev/zero)` });
    // with a root that holds /dev, the type check still refuses it
    expect(readGuarded(p, { ...limits, root: "/" })).toEqual({ kind: "refused", reason: `${p} is a character device, not a regular file` });
  });

  test("a link out of the folder is refused; a link inside it is followed", () => {
    const p = fresh();
    symlinkSync(join(outside, "other.json"), p);
    expect(readGuarded(p, limits).kind).toBe("refused");
    const inside = fresh();
    writeFileSync(join(out, "real.json"), "{}");
    symlinkSync(join(out, "real.json"), inside);
    expect(readGuarded(inside, limits)).toEqual({ kind: "ok", text: "{}" });
  });

  test("a file over the cap is refused without being read whole (a 100 MB sparse file)", () => {
    const p = fresh();
    writeFileSync(p, "");
    truncateSync(p, 100 * 1024 * 1024);
    expect(readGuarded(p, limits)).toEqual({ kind: "refused", reason: `${p} is larger than 1 MiB, the limit for this file` });
  });

  test("missing files and dangling links are missing; readGuardedText makes a refusal a clear error", () => {
    expect(readGuarded(join(out, "none.json"), limits)).toEqual({ kind: "missing" });
    const p = fresh();
    symlinkSync(join(out, "nowhere"), p);
    expect(readGuarded(p, limits)).toEqual({ kind: "missing" });
    expect(readGuardedText(p, limits)).toBeNull();
    const fifo = fresh();
    mkfifo(fifo);
    expect(() => readGuardedText(fifo, limits)).toThrow(`${fifo} is a FIFO (named pipe), not a regular file`);
  });
});

describe("removeGuarded never deletes through a link", () => {
  test("a folder on the way planted as a link is refused, and nothing behind it goes", () => {
    const { root: r, victim } = agentFolder("rm-link");
    symlinkSync(victim, join(r, "output"));
    expect(() => removeGuarded(join(r, "output", "signal.json"), join(base, "rm-link"))).toThrow(`${join(r, "output")} is a link (to ${victim}); troupe will not create or delete through a link (remove it)`);
    expect(readFileSync(join(victim, "signal.json", "precious"), "utf8")).toBe("keep me");
  });

  test("a link at the path itself goes as a link; its target stays", () => {
    const { root: r, victim } = agentFolder("rm-entry");
    mkdirSync(join(r, "output"));
    symlinkSync(join(victim, "signal.json"), join(r, "output", "signal.json"));
    removeGuarded(join(r, "output", "signal.json"), join(base, "rm-entry"));
    expect(existsSync(join(r, "output", "signal.json"))).toBe(false);
    expect(readFileSync(join(victim, "signal.json", "precious"), "utf8")).toBe("keep me");
  });

  test("a folder, a FIFO or a file at the path goes; a missing folder on the way is nothing to do", () => {
    const { root: r } = agentFolder("rm-kinds");
    const top = join(base, "rm-kinds");
    mkdirSync(join(r, "output", "signal.json", "deep"), { recursive: true });
    removeGuarded(join(r, "output", "signal.json"), top);
    expect(existsSync(join(r, "output", "signal.json"))).toBe(false);
    mkfifo(join(r, "output", "signal.json"));
    removeGuarded(join(r, "output", "signal.json"), top);
    expect(existsSync(join(r, "output", "signal.json"))).toBe(false);
    removeGuarded(join(r, "nowhere", "signal.json"), top);
  });
});

describe("makeDirGuarded and writeGuarded never create through a link", () => {
  test("a link on the way is refused and nothing is made behind it", () => {
    const { root: r, victim } = agentFolder("mk-link");
    symlinkSync(victim, join(r, "output"));
    expect(() => makeDirGuarded(join(r, "output", "imported"), join(base, "mk-link"))).toThrow("is a link");
    expect(existsSync(join(victim, "imported"))).toBe(false);
    expect(() => writeGuarded(join(r, "output", "new.json"), "{}", join(base, "mk-link"))).toThrow("is a link");
    expect(existsSync(join(victim, "new.json"))).toBe(false);
  });

  test("missing folders are made private; a file on the way is refused", () => {
    const top = join(base, "mk-made");
    mkdirSync(top);
    makeDirGuarded(join(top, ".troupe", "output"), top);
    expect(statSync(join(top, ".troupe", "output")).mode & 0o777).toBe(0o700);
    writeFileSync(join(top, "file"), "");
    expect(() => makeDirGuarded(join(top, "file", "below"), top)).toThrow("not a folder");
  });

  test("a link planted at the path is replaced, not written through; the file is whole and 0600", () => {
    const { root: r, victim } = agentFolder("wr-entry");
    mkdirSync(join(r, "output"));
    writeFileSync(join(victim, "target.json"), "theirs");
    symlinkSync(join(victim, "target.json"), join(r, "output", "signal.json"));
    writeGuarded(join(r, "output", "signal.json"), '{"status":"done"}\n', join(base, "wr-entry"));
    expect(lstatSync(join(r, "output", "signal.json")).isFile()).toBe(true);
    expect(statSync(join(r, "output", "signal.json")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(victim, "target.json"), "utf8")).toBe("theirs");
  });

  test("a directory at the path is a clear error", () => {
    const { root: r } = agentFolder("wr-dir");
    mkdirSync(join(r, "output", "signal.json"), { recursive: true });
    expect(() => writeGuarded(join(r, "output", "signal.json"), "{}", join(base, "wr-dir"))).toThrow(`${join(r, "output", "signal.json")} is a directory (remove it)`);
  });
});
