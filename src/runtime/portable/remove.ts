import { existsSync, rmSync } from "node:fs";

/**
 * `rmSync(path, { force: true })` that asks first: on Deno a forced remove of a missing path
 * builds and drops an error (~50 µs each), and a new agent's session clears three such files.
 * A dangling symlink is left (existsSync follows it); a path removed meanwhile is still fine.
 */
export function removeIfPresent(path: string, opts: { recursive?: boolean } = {}): void {
  if (existsSync(path)) rmSync(path, { force: true, ...opts });
}
