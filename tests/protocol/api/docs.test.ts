import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderApiDocs } from "../../../scripts/docs-api.ts";
import { ROWS } from "../../../src/protocol/api/index.ts";

const ROOT = join(import.meta.dir, "../../..");

test("docs/api.md is what the API table says (else: npm run docs:api)", async () => {
  expect(readFileSync(join(ROOT, "docs/api.md"), "utf8")).toBe(await renderApiDocs());
});

test("docs/api.md lists every endpoint, once", () => {
  const md = readFileSync(join(ROOT, "docs/api.md"), "utf8");
  for (const [, e] of ROWS) expect(md.split(`### \`${e.method} ${e.path}\``).length).toBe(2);
});
