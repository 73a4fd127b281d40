import { parseArgs, type ParseArgsConfig } from "node:util";
import { TroupeError } from "../errors.ts";
import { stdout } from "./streams.ts";

/** One subcommand: its usage text (shown by `--help`) and its body, loaded lazily by main.ts. */
export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  load: () => Promise<{ run: (args: string[]) => Promise<number> }>;
}

export type Options = NonNullable<ParseArgsConfig["options"]>;

/** Flags every command takes. */
export const COMMON_OPTIONS = {
  workspace: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

/** node:util parseArgs in strict mode; its errors become one-line usage errors (exit 2). */
export function parse<O extends Options>(args: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args, options: { ...COMMON_OPTIONS, ...options }, allowPositionals, strict: true });
  } catch (err) {
    const msg = (err as Error).message.split("\n")[0]!.replace(/\. To specify a positional argument.*$/, "");
    throw new TroupeError("usage", msg, { cause: err });
  }
}

export function parseIntFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new TroupeError("usage", `--${name} takes a whole number, not '${value}'`);
  return Number(value);
}

export function printJson(value: unknown): Promise<void> {
  return stdout.write(`${JSON.stringify(value)}\n`);
}
