import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { ENDPOINTS, RESOURCES, ROWS, loadSchema } from "../../../src/protocol/api/index.ts";
import { readQuery, writeQuery, query } from "../../../src/protocol/api/query.ts";
import { TroupeClient } from "../../../src/client/client.ts";

describe("the API table", () => {
  test("each route is served once, and each endpoint's name is its own across resources", () => {
    const routes = ROWS.map(([, e]) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    const names = Object.values(RESOURCES).flatMap((r) => Object.keys(r));
    expect(names.length).toBe(ROWS.length);
    expect(new Set(names).size).toBe(names.length);
  });

  test("a path has at most one parameter, described, and a body never names it", async () => {
    for (const [name, e] of ROWS) {
      const params = [...e.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
      expect(`${name}: ${params.length <= 1}`).toBe(`${name}: true`);
      expect(`${name}: ${Object.keys(e.params ?? {}).join(",")}`).toBe(`${name}: ${params.join(",")}`);
      if (e.target) expect(`${name}: ${params.length}`).toBe(`${name}: 1`);
      if (!e.body) continue;
      const body = await loadSchema(e.body);
      const shape = body instanceof z.ZodObject ? Object.keys(body.shape) : [];
      for (const p of params) expect(`${name}: ${shape.includes(p)}`).toBe(`${name}: false`);
    }
  });

  test("every schema it names loads, and bodies only where a body goes", async () => {
    for (const [name, e] of ROWS) {
      if (e.body) expect(`${name}: ${(await loadSchema(e.body)) instanceof z.ZodType}`).toBe(`${name}: true`);
      if (e.reply.kind !== "ok") expect(`${name}: ${(await loadSchema(e.reply.schema)) instanceof z.ZodType}`).toBe(`${name}: true`);
      if (e.body) expect(`${name}: ${e.method}`).toMatch(/: (POST|PATCH)$/);
      // no endpoint takes both: a client's one payload is its query or its body
      expect(`${name}: ${Boolean(e.body && e.query)}`).toBe(`${name}: false`);
    }
  });

  test("a field rule names a field of the body", async () => {
    for (const [name, e] of ROWS) {
      for (const field of Object.keys(e.fields ?? {})) {
        const body = await loadSchema(e.body!);
        expect(`${name}.${field}: ${Object.keys((body as z.ZodObject).shape).includes(field)}`).toBe(`${name}.${field}: true`);
      }
    }
  });

  test("the client has a method for every endpoint but the stream, none shadowing its own members", () => {
    const own = new Set(["constructor", "call", "events", "openEvents", "transport", "token"]);
    for (const [name, e] of ROWS) {
      if (e.reply.kind === "stream") expect(name).toBe("events");
      else {
        expect(own.has(name)).toBe(false);
        expect(typeof (TroupeClient.prototype as unknown as Record<string, unknown>)[name]).toBe("function");
      }
    }
    expect(ENDPOINTS.events.reply.kind).toBe("stream");
  });
});

describe("query parameters", () => {
  const spec = { after: query.int("a"), force: query.flag("f"), dryRun: query.flag("d", "dry-run"), to: query.text("t"), output: query.list("o") };

  test("what the client writes, the daemon reads back", () => {
    const values = { after: 5, force: true, dryRun: true, to: "user", output: ["ag_1", "ag 2"] };
    const written = writeQuery(spec, values);
    expect(written).toBe("?after=5&force&dry-run&to=user&output=ag_1,ag%202");
    expect(readQuery(spec, new URL(`http://x/${written}`).searchParams)).toEqual(values);
    expect(readQuery(spec, new URLSearchParams("output=none"))).toEqual({ after: undefined, force: false, dryRun: false, to: undefined, output: [] });
    expect(writeQuery(spec, { output: [] })).toBe("?output=none");
    expect(writeQuery(spec, { force: false })).toBe("");
  });

  test("an int that is not a whole number is a bad request naming the parameter", () => {
    for (const bad of ["-1", "1.5", "abc", "", "0x10"]) expect(() => readQuery(spec, new URLSearchParams({ after: bad }))).toThrow("query parameter after must be a whole number");
  });
});
