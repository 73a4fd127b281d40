import { join, resolve } from "node:path";

/**
 * Where the end-to-end tests find the real agent CLIs: node_modules/.bin (the versions pinned in
 * package.json), or TROUPE_CLI_BIN, set by `npm run check:clis` to a folder holding the newest
 * releases it installed.
 */
export const CLI_BIN = process.env.TROUPE_CLI_BIN ?? join(resolve(import.meta.dir, "../.."), "node_modules", ".bin");
