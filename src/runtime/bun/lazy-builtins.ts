import type { BunPlugin } from "bun";

/**
 * In the bundle for Deno: node:fs, node:crypto, node:os, node:url and node:module, wherever they
 * are imported, resolve to a module that loads the built-in at the first call of one of its
 * functions. Deno builds its Node polyfills as a program imports them, node:fs ~20 ms,
 * node:crypto ~18 ms and node:module ~12 ms of each start (docs/performance.md, "Deno"), and most
 * starts never call them: `troupe answer` with its socket in TROUPE_SOCKET, `troupe --version`.
 * Bun's node: built-ins cost nothing to import: its build keeps them.
 */
const LAZY_BUILTINS = ["node:fs", "node:crypto", "node:os", "node:url", "node:module"] as const;

/**
 * Functions a module calls as it loads, whose result is called later, if at all: they answer at
 * once with a stand-in that makes the real call when first used. The bundle's CommonJS wrapper
 * makes its `require` with createRequire(import.meta.url) as it loads, and calls it only for a
 * package's require of a built-in.
 */
const DEFERRED: Record<string, string[]> = { "node:module": ["createRequire"] };

const NAMESPACE = "lazy-builtin";

/**
 * The stand-in module for `specifier`, with the names `real` (the built-in as Bun has it, at
 * build time) exports: functions called (or constructed) on the built-in once it is loaded (or
 * DEFERRED further),
 * objects (`constants`, `promises`, the default export) read through to it, numbers (`F_OK`:
 * POSIX's own) as they are.
 */
export function lazyModuleSource(specifier: string, real: Record<string, unknown>): string {
  const lines = [
    "let loaded;",
    `const real = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(specifier)}));`,
    "const fn = (name) => function (...args) { const f = real()[name]; return new.target ? Reflect.construct(f, args, new.target) : f.apply(this, args); };",
    "const obj = (get) => new Proxy({}, {",
    "  get: (_, key) => get()[key],",
    "  has: (_, key) => key in get(),",
    "  ownKeys: () => Reflect.ownKeys(get()),",
    "  getOwnPropertyDescriptor: (_, key) => { const d = Reflect.getOwnPropertyDescriptor(get(), key); return d && { ...d, configurable: true }; },",
    "});",
    "export default obj(real);",
  ];
  const deferred = DEFERRED[specifier] ?? [];
  for (const [name, value] of Object.entries(real)) {
    if (name === "default" || !/^[A-Za-z_$][\w$]*$/.test(name)) continue;
    // a declaration of its own, whole: Bun puts its CommonJS wrapper ahead of this module in a chunk
    if (deferred.includes(name))
      lines.push(
        `export function ${name}(...args) { let made; const get = () => (made ??= process.getBuiltinModule(${JSON.stringify(specifier)})[${JSON.stringify(name)}](...args)); ` +
          "return new Proxy(function (...a) { return get()(...a); }, { get: (_, key) => get()[key] }); }",
      );
    else if (typeof value === "function") lines.push(`export const ${name} = fn(${JSON.stringify(name)});`);
    else if (typeof value === "object" && value !== null) lines.push(`export const ${name} = obj(() => real()[${JSON.stringify(name)}]);`);
    else if (typeof value === "number" || typeof value === "string") lines.push(`export const ${name} = ${JSON.stringify(value)};`);
  }
  return lines.join("\n");
}

export const lazyBuiltins: BunPlugin = {
  name: "lazy-node-builtins",
  setup(build) {
    const filter = new RegExp(`^(?:${LAZY_BUILTINS.join("|")})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: NAMESPACE }));
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => ({
      contents: lazyModuleSource(args.path, (await import(args.path)) as Record<string, unknown>),
      loader: "js",
    }));
  },
};
