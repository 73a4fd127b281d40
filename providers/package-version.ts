import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The version of the npm package an executable on PATH belongs to (`node_modules/.bin/gemini` →
 * `@google/gemini-cli`'s package.json), read from disk: a CLI that takes seconds to print its
 * version (a 200 MB binary, a bundled runtime) need not be started. Undefined when the file is
 * not inside that package (installed another way): the caller asks the CLI then.
 */
export function packageVersion(executable: string, npmPackage: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(executable));
  } catch {
    return undefined;
  }
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === npmPackage && typeof pkg.version === "string") return pkg.version;
    } catch {
      // no package.json here, or not JSON: look further up
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}
