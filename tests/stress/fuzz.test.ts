import { afterEach, expect, test } from "bun:test";
import { Sandbox } from "../support/sandbox.ts";
import { formatFuzz, runFuzz, totals } from "../../scripts/stress/fuzz.ts";
import { readRoutes } from "../../scripts/stress/fuzz-cases.ts";

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

test("the fuzz pass finds every route the daemon serves", () => {
  const routes = readRoutes().map((r) => `${r.method} ${r.pattern}`);
  expect(routes).toContain("GET /v1/health");
  expect(routes).toContain("POST /v1/agents/:ref/resume");
  expect(routes).toContain("GET /v1/events");
  expect(new Set(routes).size).toBe(routes.length);
});

test("300 fuzzed requests over every route: no 5xx, nothing hung, the same daemon still answers", async () => {
  sb = new Sandbox();
  const r = await runFuzz(sb, { cases: 300, seed: 300, concurrency: 16 });
  const t = totals(r);
  const report = formatFuzz(r); // shown when an assertion fails
  expect({ "5xx": t["5xx"], hung: t.hung, report }).toEqual({ "5xx": 0, hung: 0, report });
  expect(r.pidAfter).toBe(r.pidBefore);
  expect(r.loggedErrors).toBe(0);
  // most requests were refused with a reason, and some valid ones were served
  expect(t["4xx"]).toBeGreaterThan(150);
  expect(t["2xx"]).toBeGreaterThan(0);
});
