import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { workspaceCheck } from "../../src/daemon/workspace-check.ts";
import { WORKSPACE_HEADER } from "../../src/self.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "troupe-wscheck-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, "a\\b ws");
mkdirSync(root);
symlinkSync(root, join(base, "link"));

const req = (workspace?: string) => new Request("http://troupe/v1/agents", { headers: workspace === undefined ? {} : { [WORKSPACE_HEADER]: workspace } });
const check = workspaceCheck(root, "/run/d.sock");

test("a request naming this workspace, by its path or a link to it, or naming none, passes", () => {
  expect(check(req(encodeURIComponent(root)))).toBeNull();
  expect(check(req(encodeURIComponent(join(base, "link"))))).toBeNull();
  expect(check(req())).toBeNull();
});

test("a request naming another workspace is refused in one line that names both", () => {
  const other = join(base, "other");
  const why = check(req(encodeURIComponent(other)));
  expect(why).toBe(`the daemon on /run/d.sock serves ${root}, not ${other}: TROUPE_SOCKET names another workspace's daemon (unset it to reach ${other}'s)`);
  // a header that is no URI encoding is taken as it is
  expect(check(req("%E0%A4%A"))).toContain("not %E0%A4%A:");
});
