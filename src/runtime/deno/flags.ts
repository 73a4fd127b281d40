/**
 * How `deno run` runs troupe, wherever it does (the launcher scripts/build-deno.ts writes, the
 * daemon it starts, the shim on an agent's PATH): every permission (troupe starts agents, reads
 * and writes the workspace, opens libc); request.signal aborted only when the client goes away
 * (the daemon's event streams count connected clients by it); gc() exposed for the dashboard's
 * RSS guard (src/ui/mount.tsx); a dynamic import read when it runs: by default Deno reads and
 * parses every module a literal `import()` names before the program starts (all 100 chunks of
 * the bundle: 0.1 s of CPU at every `troupe ask`, most of it for the dashboard's and the
 * daemon's code).
 */
export const DENO_RUN_FLAGS = ["-A", "--unstable-no-legacy-abort", "--unstable-lazy-dynamic-imports", "--v8-flags=--expose-gc"] as const;

/**
 * Added for the bundle (one .js file that imports only node: built-ins): the project's deno.json,
 * package.json and lockfile around it are not its configuration.
 */
export const DENO_BUNDLE_FLAGS = ["--no-config", "--no-lock"] as const;
