import type { Program } from "../contract.ts";
import { Deno } from "./api.ts";

/**
 * Whether anything touched Node's `process` global, which Deno builds at its first read: only
 * then can a `process.on("exit")` listener be waiting, which Deno.exit would skip.
 */
let nodeProcessBuilt = false;
const global = Object.getOwnPropertyDescriptor(globalThis, "process");
if (global?.get && global.configurable) {
  const build = global.get;
  Object.defineProperty(globalThis, "process", {
    ...global,
    get() {
      nodeProcessBuilt = true;
      return build.call(this);
    },
  });
} else nodeProcessBuilt = true;

/** Deno's names for a system or a CPU where Node's differ. */
const NODE_NAMES: Record<string, string> = { windows: "win32", x86_64: "x64", aarch64: "arm64" };
const nodeName = (name: string) => NODE_NAMES[name] ?? name;

type NodeExit = { process: { exit(code: number): never } };

export const program: Program = {
  args: () => [...Deno.args],
  env: (name) => Deno.env.get(name),
  cwd: () => Deno.cwd(),
  pid: () => Deno.pid,
  platform: () => `${nodeName(Deno.build.os)}-${nodeName(Deno.build.arch)}`,
  uid: () => Deno.uid() ?? undefined,
  exit: (code) => (nodeProcessBuilt ? (globalThis as unknown as NodeExit).process.exit(code) : Deno.exit(code)),
};
