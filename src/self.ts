import { dirname } from "node:path";

/** True inside the executable built by `Bun.build({compile})`. */
export function isCompiled(): boolean {
  return import.meta.url.includes("$bunfs") || (process.argv[1] ?? "").startsWith("/$bunfs/");
}

/** The argv that runs this same troupe again: the binary, or bun plus the entry script. */
export function selfCommand(): string[] {
  if (isCompiled()) return [process.execPath];
  return [process.execPath, Bun.main];
}

/** The folder to put first on an agent's PATH so that `troupe` there is this troupe. */
export function selfBinDir(): string | null {
  return isCompiled() ? dirname(process.execPath) : null;
}

export const VERSION = "0.1.0";
