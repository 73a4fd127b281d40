import { describe, expect, test } from "bun:test";
import { accountStatus, earliestReset, leastRecentlyUsed, publicAccount, type StoredAccount } from "../../src/accounts/select.ts";

const NOW = 1_800_000_000_000;
let n = 0;
function acct(over: Partial<StoredAccount> = {}): StoredAccount {
  n++;
  return { id: `acct_${n}`, name: `a${n}`, provider: "claude", kind: "token", token: `tok${n}`, configDir: null, env: null, exhaustedUntil: null, windows: [], refused: null, lastUsedAt: null, createdAt: n, ...over };
}
const always = () => true;

describe("least recently used selection", () => {
  test("never used first (oldest first among them), then the oldest use", () => {
    const used = acct({ lastUsedAt: NOW - 10 });
    const older = acct({ lastUsedAt: NOW - 1000 });
    const fresh1 = acct();
    const fresh2 = acct();
    expect(leastRecentlyUsed([used, older, fresh2, fresh1], "claude", NOW, always)?.id).toBe(fresh1.id);
    expect(leastRecentlyUsed([used, older], "claude", NOW, always)?.id).toBe(older.id);
  });

  test("only the provider's available accounts, never the one excluded", () => {
    const other = acct({ provider: "codex" });
    const spent = acct({ exhaustedUntil: NOW + 1 });
    const gone = acct({ kind: "config-dir", token: null, configDir: "/nowhere" });
    const ok = acct({ lastUsedAt: NOW });
    const exists = (p: string) => p !== "/nowhere";
    expect(leastRecentlyUsed([other, spent, gone, ok], "claude", NOW, exists)?.id).toBe(ok.id);
    expect(leastRecentlyUsed([other, spent, gone, ok], "claude", NOW, exists, ok.id)).toBeNull();
  });

  test("an exhaustion expires at its reset: the account is available again", () => {
    const a = acct({ exhaustedUntil: NOW + 5_000 });
    expect(accountStatus(a, NOW, always).status).toBe("exhausted");
    expect(accountStatus(a, NOW + 5_000, always).status).toBe("available");
    expect(leastRecentlyUsed([a], "claude", NOW + 5_000, always)?.id).toBe(a.id);
    expect(publicAccount(a, NOW + 5_000, always).exhaustedUntil).toBeNull();
    expect(publicAccount(a, NOW, always).exhaustedUntil).toBe(NOW + 5_000);
  });

  test("a missing config folder makes the account invalid, whatever its quota", () => {
    const a = acct({ kind: "config-dir", token: null, configDir: "/gone", exhaustedUntil: NOW + 1 });
    expect(accountStatus(a, NOW, () => false)).toEqual({ status: "invalid", problem: "config folder /gone is missing" });
  });

  test("a refused credential makes it invalid with the provider's words, whatever its quota", () => {
    const a = acct({ refused: "credential refused: OAuth token has expired", exhaustedUntil: NOW - 1 });
    expect(accountStatus(a, NOW, always)).toEqual({ status: "invalid", problem: "credential refused: OAuth token has expired" });
    expect(leastRecentlyUsed([a], "claude", NOW, always)).toBeNull();
    // spent as well: its reset brings nothing back, so nothing waits for it
    expect(earliestReset([acct({ refused: "credential refused", exhaustedUntil: NOW + 5_000 })], "claude", NOW)).toBeNull();
  });

  test("the earliest reset among the provider's spent accounts", () => {
    const accounts = [acct({ exhaustedUntil: NOW + 9_000 }), acct({ exhaustedUntil: NOW + 3_000 }), acct({ exhaustedUntil: NOW - 1 }), acct({ provider: "codex", exhaustedUntil: NOW + 1 })];
    expect(earliestReset(accounts, "claude", NOW)).toBe(NOW + 3_000);
    expect(earliestReset(accounts, "gemini", NOW)).toBeNull();
  });

  test("the public view carries no secret", () => {
    const view = JSON.stringify(publicAccount(acct({ kind: "env", token: null, env: { KEY: "hunter2" } }), NOW, always));
    expect(view).not.toContain("hunter2");
    expect(view).not.toContain("tok");
  });
});

describe("selection with a forecast", () => {
  // 1 h into a 5-hour window, 96.7 % used: about 2 minutes left
  const short = { window: "five_hour", utilization: 0.967, resetsAt: NOW + 4 * 3_600_000, seenAt: NOW, first: { utilization: 0.967, seenAt: NOW } };

  test("an account forecast to run out within the run is passed over for one that lasts, and taken for a shorter run", () => {
    const soon = acct({ windows: [short] });
    const later = acct({ lastUsedAt: NOW - 1000 });
    expect(leastRecentlyUsed([soon, later], "claude", NOW, always, null, 10 * 60_000)?.id).toBe(later.id);
    expect(leastRecentlyUsed([soon, later], "claude", NOW, always, null, 60_000)?.id).toBe(soon.id);
    // none lasts: still the least recently used (a forecast is advice), never none
    expect(leastRecentlyUsed([soon], "claude", NOW, always, null, 10 * 60_000)?.id).toBe(soon.id);
  });

  test("a window reported used up makes the account exhausted until its reset, and names that reset", () => {
    const out = acct({ windows: [{ ...short, utilization: 1 }] });
    expect(accountStatus(out, NOW, always).status).toBe("exhausted");
    expect(publicAccount(out, NOW, always)).toMatchObject({ status: "exhausted", exhaustedUntil: short.resetsAt, runsOutAt: null });
    expect(earliestReset([out], "claude", NOW)).toBe(short.resetsAt);
    expect(leastRecentlyUsed([out], "claude", NOW, always, null, 60_000)).toBeNull();
    expect(publicAccount(acct({ windows: [short] }), NOW, always).runsOutAt).toBeGreaterThan(NOW);
  });
});
