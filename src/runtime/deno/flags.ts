/**
 * How `deno run` runs troupe, wherever it does (the launcher scripts/build-deno.ts writes, the
 * daemon it starts, the shim on an agent's PATH): every permission (troupe starts agents, reads
 * and writes the workspace, opens libc); request.signal aborted only when the client goes away
 * (the daemon's event streams count connected clients by it); gc() exposed for the dashboard's
 * RSS guard (src/ui/mount.tsx); quiet: Deno's own progress line, cleared at start on a terminal (ESC[0G ESC[2K
 * ESC[J to stderr, even with nothing to show), erased the shell's text on the dashboard's row.
 */
export const DENO_RUN_FLAGS = ["-A", "--quiet", "--unstable-no-legacy-abort", "--v8-flags=--expose-gc"] as const;

/**
 * Added for the bundle (main.js, its chunks, node: built-ins): the project's deno.json,
 * package.json and lockfile around it are not its configuration; and its chunks load when
 * imported, not at start. Without --unstable-lazy-dynamic-imports Deno reads, parses and caches
 * every chunk a literal `import()` names before running main.js: all 150 files (2.9 MB) for a
 * `troupe --version` whose own code is 6 files (23 KB), 212 → 99 ms with an empty DENO_DIR (a
 * sandboxed agent's first call) and 76 → 70 ms with a warm one (docs/performance.md, "Deno").
 */
export const DENO_BUNDLE_FLAGS = ["--no-config", "--no-lock", "--unstable-lazy-dynamic-imports"] as const;
