/**
 * src/store/schema.sql from the table declarations (src/store/tables/): the schema the migrations
 * make of an empty store, to be read. tests/store/migrations.test.ts fails when the file is stale.
 * Usage: npm run docs:schema   (writes src/store/schema.sql)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { schemaSql } from "../src/store/tables/index.ts";

if (import.meta.main) {
  const path = join(import.meta.dirname, "..", "src", "store", "schema.sql");
  writeFileSync(path, schemaSql());
  process.stdout.write(`wrote ${path}\n`);
}
