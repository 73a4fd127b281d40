import { expect, test } from "bun:test";
import { Router } from "../../src/daemon/router.ts";
import { uniqueName } from "../../src/agents/start/agent-names.ts";

test("router matches params, reports allowed methods, and rejects undecodable params", () => {
  const h = () => new Response();
  const r = new Router().on("GET", "/v1/agents/:ref", h).on("POST", "/v1/agents/:ref/stop", h);
  expect(r.match("GET", "/v1/agents/brave-otter")).toEqual({ handler: h, params: { ref: "brave-otter" }, pattern: "/v1/agents/:ref" });
  expect(r.match("GET", "/v1/agents/a%20b")).toMatchObject({ params: { ref: "a b" } });
  expect(r.match("DELETE", "/v1/agents/x")).toEqual({ allowed: ["GET"] });
  expect(r.match("GET", "/v1/agents/%E0%A4%A")).toBeNull();
  expect(r.match("GET", "/v1/other")).toBeNull();
});

test("unique names avoid taken ones and never repeat", () => {
  const taken = new Set<string>();
  for (let i = 0; i < 2000; i++) taken.add(uniqueName((n) => taken.has(n)));
  expect(taken.size).toBe(2000);
  for (const n of taken) expect(n).toMatch(/^[a-z]+-[a-z]+(-\d+)?$/);
});
