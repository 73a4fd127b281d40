import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { AccountStore } from "../../src/accounts/store.ts";
import { accountPaths } from "../../src/accounts/paths.ts";
import { carrySession } from "../../src/accounts/carry.ts";
import { TroupeError } from "../../src/errors.ts";

let dir: string;
const fresh = () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-accounts-"));
  return accountPaths({ XDG_STATE_HOME: dir });
};
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const token = (name: string, provider = "claude") => ({ name, provider, kind: "token" as const, token: `tok-${name}`, configDir: null, env: null });

describe("the user's account store", () => {
  test("lives under $XDG_STATE_HOME/troupe, 0600; two stores (two daemons) see each other's exhaustion", () => {
    const paths = fresh();
    expect(paths.file).toBe(join(dir, "troupe", "accounts.json"));
    const a = new AccountStore(paths);
    const b = new AccountStore(paths);
    const one = a.add(token("one"));
    a.add(token("two"));
    expect(statSync(paths.file).mode & 0o777).toBe(0o600);
    expect(b.take("claude", {}, 1_000)?.name).toBe("one");
    a.markExhausted(one.id, 5_000);
    // the other store: never the spent one
    expect(b.take("claude", {}, 2_000)?.name).toBe("two");
    expect(b.take("claude", {}, 3_000)?.name).toBe("two");
    // past the reset, the least recently used is "one" again
    expect(b.take("claude", {}, 5_000)?.name).toBe("one");
  });

  test("no accounts for the provider: null, and no file written", () => {
    const paths = fresh();
    expect(new AccountStore(paths).take("claude")).toBeNull();
    expect(() => statSync(paths.file)).toThrow();
  });

  test("every account spent: an error naming the earliest reset; a pinned spent one is refused too", () => {
    const s = new AccountStore(fresh());
    const one = s.add(token("one"));
    const two = s.add(token("two"));
    s.markExhausted(one.id, Date.UTC(2030, 0, 1, 12));
    s.markExhausted(two.id, Date.UTC(2030, 0, 1, 10));
    const err = (() => {
      try {
        s.take("claude");
      } catch (e) {
        return e as TroupeError;
      }
    })();
    expect(err?.code).toBe("accounts_exhausted");
    expect(err?.message).toBe("every claude account is spent or unusable until 2030-01-01T10:00:00.000Z (see 'troupe account ls')");
    expect(() => s.take("claude", { pinned: "one" })).toThrow("account 'one' is spent or unusable until 2030-01-01T12:00:00.000Z");
    expect(() => s.take("claude", { pinned: "nope" })).toThrow("no claude account 'nope'");
  });

  test("a later reset another daemon recorded is kept", () => {
    const s = new AccountStore(fresh());
    const one = s.add(token("one"));
    s.markExhausted(one.id, 9_000);
    s.markExhausted(one.id, 4_000);
    expect(s.get(one.id)?.exhaustedUntil).toBe(9_000);
  });

  test("a refused credential stays until the person resets it, which clears a spent quota too; files from before refusals read", () => {
    const paths = fresh();
    const s = new AccountStore(paths);
    const one = s.add(token("one"));
    s.add(token("two"));
    s.markRefused(one.id, "credential refused: Invalid API key");
    s.markExhausted(one.id, 9_000);
    // years later, still never taken: only the person brings it back
    expect(s.take("claude", {}, 10_000_000)?.name).toBe("two");
    expect(() => s.take("claude", { pinned: "one" }, 10_000_000)).toThrow("account 'one' is spent or unusable");
    expect(s.reset("one")).toMatchObject({ name: "one", refused: null, exhaustedUntil: null });
    expect(s.take("claude", { pinned: "one" }, 1_000)?.name).toBe("one");
    expect(() => s.reset("nope")).toThrow("no account 'nope'");
    // an accounts.json written by an older troupe has no `refused`
    const old = JSON.parse(readFileSync(paths.file, "utf8"));
    for (const a of old.accounts) delete a.refused;
    writeFileSync(paths.file, JSON.stringify(old));
    expect(new AccountStore(paths).list().map((a) => a.refused)).toEqual([null, null]);
  });

  test("a damaged file is an error, never an empty list that would lose the accounts", () => {
    const paths = fresh();
    mkdirSync(join(dir, "troupe"), { recursive: true });
    writeFileSync(paths.file, "{not json");
    expect(() => new AccountStore(paths).list()).toThrow("is not JSON; fix or remove it");
    expect(() => new AccountStore(paths).add(token("x"))).toThrow();
    expect(readFileSync(paths.file, "utf8")).toBe("{not json");
  });

  test("concurrent processes never lose an update (the flock)", async () => {
    const paths = fresh();
    new AccountStore(paths).add(token("seed"));
    const script = (i: number) =>
      `import { AccountStore } from ${JSON.stringify(join(import.meta.dir, "../../src/accounts/store.ts"))};` +
      `const s = new AccountStore(${JSON.stringify(paths)}); for (let j = 0; j < 20; j++) s.add({ name: "p${i}-" + j, provider: "codex", kind: "env", token: null, configDir: null, env: { K: "v" } });`;
    const procs = [0, 1, 2].map((i) => Bun.spawn([process.execPath, "-e", script(i)], { stdout: "ignore", stderr: "pipe" }));
    for (const p of procs) expect(await p.exited).toBe(0);
    expect(new AccountStore(paths).list()).toHaveLength(61);
  });
});

describe("carrying a session between account folders", () => {
  test("the session's files are copied to the same place; none found is false", () => {
    dir = mkdtempSync(join(tmpdir(), "troupe-carry-"));
    const from = join(dir, "a");
    const to = join(dir, "b");
    mkdirSync(join(from, "projects", "-tmp-ws"), { recursive: true });
    writeFileSync(join(from, "projects", "-tmp-ws", "sess-123.jsonl"), "history\n");
    writeFileSync(join(from, "projects", "-tmp-ws", "other.jsonl"), "other\n");
    expect(carrySession(from, to, "sess-123")).toBe(true);
    expect(readFileSync(join(to, "projects", "-tmp-ws", "sess-123.jsonl"), "utf8")).toBe("history\n");
    expect(() => statSync(join(to, "projects", "-tmp-ws", "other.jsonl"))).toThrow();
    expect(carrySession(from, to, "sess-missing")).toBe(false);
    expect(carrySession(from, from, "anything")).toBe(true);
  });
});
