import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoginStore } from "../../src/web/logins.ts";
import { LoginLimit } from "../../src/web/login-limit.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-logins-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the web page's logins", () => {
  test("a token is redeemed once, within its ten minutes; the cookie's secret finds its login, nothing else does", () => {
    const store = new LoginStore(join(dir, "a.json"));
    const now = 1_000_000;
    const token = store.mint(now);
    expect(store.redeem("not-it", "phone", now)).toBeNull();
    const got = store.redeem(token, "phone", now)!;
    expect(got.session.login).toMatchObject({ device: "phone", createdAt: now });
    expect(store.redeem(token, "phone", now)).toBeNull();
    expect(store.check(got.secret, now + 5)?.login.id).toBe(got.session.login.id);
    expect(store.check(`${got.secret}x`, now)).toBeNull();
    const late = store.mint(now);
    expect(store.redeem(late, "phone", now + 10 * 60_000)).toBeNull();
    // the key is a login's second secret, handed over once
    expect(got.key).not.toBe(got.secret);
    // a login ends after thirty days, whatever the cookie says
    expect(store.check(got.secret, now + 30 * 86_400_000)).toBeNull();
    expect(store.list()).toEqual([]);
  });

  test("logins outlive the process in a 0600 file, as hashes; a revoked one is gone; a damaged file is no login", async () => {
    const path = join(dir, "b.json");
    const first = new LoginStore(path);
    const { secret, key, session } = first.redeem(first.mint(), "laptop")!;
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const kept = await Bun.file(path).text();
    expect(kept).not.toContain(secret);
    expect(kept).not.toContain(key);
    const second = new LoginStore(path);
    expect(second.check(secret)?.login.id).toBe(session.login.id);
    expect(second.revoke(session.login.id)).toBe(true);
    expect(second.revoke(session.login.id)).toBe(false);
    expect(new LoginStore(path).check(secret)).toBeNull();
    await Bun.write(path, "{not json");
    expect(new LoginStore(path).list()).toEqual([]);
  });

  test("failed logins: five a minute per address, thirty in all, then a wait that ends", () => {
    const limit = new LoginLimit();
    const t = 5_000_000;
    for (let i = 0; i < 5; i++) limit.failed("10.0.0.1", t);
    expect(limit.wait("10.0.0.1", t)).toBeGreaterThan(0);
    expect(limit.wait("10.0.0.2", t)).toBe(0);
    expect(limit.wait("10.0.0.1", t + 60_001)).toBe(0);
    for (let i = 0; i < 30; i++) limit.failed(`10.1.0.${i}`, t);
    expect(limit.wait("10.9.9.9", t)).toBeGreaterThan(0);
  });
});
