import type { BunPlugin } from "bun";

/**
 * In the bundle for Deno: the built-ins every agent-side command calls at its start, as the same
 * code in plain JavaScript. Deno builds its Node layer at the first `node:` import, ~4 ms of a
 * start and more for each module after it (docs/performance.md, "Deno"); with these, and node:os,
 * node:url and node:module loaded when first called (./lazy-builtins.ts), `troupe answer`
 * imports none. node:path is path-browserify (Node's own POSIX path module); the parseArgs of
 * src/cli/command.ts is @pkgjs/parseargs (Node's util.parseArgs, published by Node's package
 * maintainers). Bun's own cost nothing to import: its build keeps them.
 *
 * node:process is the `process` global, read through it: src/runtime/deno/program.ts learns from
 * that read that Node's process was built (and may hold exit listeners), wherever it came from.
 */
export const pureBuiltins: BunPlugin = {
  name: "pure-node-builtins",
  setup(build) {
    build.onResolve({ filter: /^node:path$/ }, () => ({ path: Bun.resolveSync("path-browserify", import.meta.dir) }));
    build.onResolve({ filter: /^node:util$/ }, (args) =>
      args.importer.endsWith("/src/cli/command.ts") ? { path: Bun.resolveSync("@pkgjs/parseargs", import.meta.dir) } : undefined,
    );
    build.onResolve({ filter: /^(?:node:)?process$/ }, () => ({ path: "process", namespace: "global-process" }));
    build.onLoad({ filter: /.*/, namespace: "global-process" }, () => ({ contents: globalProcessSource(process), loader: "js" }));
  },
};

const PROCESS_STREAMS = ["stdin", "stdout", "stderr"];

/** Values a module may import by name from node:process: plain data, read once as it loads. */
const PROCESS_VALUES = ["env", "argv", "execArgv", "execPath", "pid", "ppid", "platform", "arch", "version", "versions", "release", "config", "features"];

/**
 * A module whose default export is the `process` global, with `real`'s (Bun's process, at build
 * time) functions, called on the global, and PROCESS_VALUES as named exports. The streams
 * (stdin, stdout, stderr) are left out: reading one builds it, which importing must not do; a
 * module that imports one by name fails the build.
 */
export function globalProcessSource(real: object): string {
  const lines = ["const p = globalThis.process;", "export default p;"];
  const names = new Set<string>();
  // its own and its EventEmitter's (on, once, emit, ...)
  for (let o: object | null = real; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) for (const name of Object.getOwnPropertyNames(o)) names.add(name);
  for (const name of names) {
    if (!/^[A-Za-z_$][\w$]*$/.test(name) || name === "constructor" || PROCESS_STREAMS.includes(name)) continue;
    if (typeof (real as Record<string, unknown>)[name] === "function") lines.push(`export const ${name} = (...args) => p.${name}(...args);`);
    else if (PROCESS_VALUES.includes(name)) lines.push(`export const ${name} = p.${name};`);
  }
  return lines.join("\n");
}
