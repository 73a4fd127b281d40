import { parseArgs } from "node:util";
import { TroupeError } from "../errors.ts";
import { stdout, verbatim } from "./streams.ts";

/** One flag of a command: how it parses, and its line in `--help`. */
interface Flag {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
  /** Its value's name in usage (`--budget USD`). */
  readonly arg?: string;
  /** Its line in usage (`\n` starts a continuation line); null when the synopsis or the notes tell it. */
  readonly help: string | null;
}
export type Flags = Readonly<Record<string, Flag>>;

/**
 * A subcommand (`troupe account add`), declared once: its synopsis line, the flags it takes (of
 * its command's), and its body. The command's synopsis, its dispatch, its unknown-subcommand
 * error and shell completion (`troupe completion`) all derive from its forms.
 */
interface Form<N extends string = string> {
  /** What follows `troupe COMMAND FORM` in the synopsis; `\n` starts a continuation line, three spaces a note. */
  readonly usage: string;
  readonly flags: readonly N[];
  readonly run: (args: string[]) => Promise<number>;
}

/**
 * What a command takes, declared once: `--help` prints it, the parser accepts exactly these
 * flags (a form accepts its own subset), and tests/cli/command.test.ts holds the two together.
 */
export type Forms<F extends Flags> = Readonly<Record<string, Form<keyof F & string>>>;

export interface CommandSpec<F extends Flags = Flags, Fm extends Forms<F> = Forms<F>> {
  /** The command's word; with `forms`, the synopsis is one line per form under it. */
  readonly name?: string;
  /** One line per form (`troupe spawn ...`); derived from `forms` when it has them. */
  readonly synopsis?: string;
  /** Lines between the synopsis and the flags, as shown. */
  readonly intro?: string;
  readonly flags: F;
  /** Subcommands and the flags each takes; none: every flag wherever the command is parsed. */
  readonly forms?: Fm;
  /** `--json`, listed with the flags when it says more than the synopsis's `[--json]`. */
  readonly json?: string;
  /** Lines after the flags, as shown. */
  readonly notes?: string;
  /** Whether the `--workspace DIR` line ends the usage (default: it does). */
  readonly workspace?: boolean;
}

/** Flags every command takes. */
const COMMON = {
  workspace: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;
export const COMMON_FLAGS: readonly string[] = Object.keys(COMMON);

const WORKSPACE = "  --workspace DIR   the workspace (default: git toplevel of the current folder, or $TROUPE_WORKSPACE)";

type ValueOf<F extends Flag> = F["type"] extends "boolean" ? (F extends { multiple: true } ? boolean[] : boolean) : F extends { multiple: true } ? string[] : string;
type Values<F extends Flags> = { -readonly [N in keyof F]?: ValueOf<F[N]> } & { workspace?: string; json?: boolean; help?: boolean };

/** A declared command: its usage text, and a parser that takes exactly its flags. */
export interface Command<F extends Flags = Flags, Fm extends Forms<F> = Forms<F>> {
  readonly spec: CommandSpec<F, Fm>;
  /** `--help`'s text, without the leading `usage: `. */
  readonly usage: string;
  run(args: string[]): Promise<number>;
  /** node:util parseArgs in strict mode over the declared flags (a form's only); errors are one-line usage errors (exit 2). */
  parse(args: string[], opts?: { positionals?: boolean }): { values: Values<F>; positionals: string[] };
  parseForm<K extends keyof Fm & string>(form: K, args: string[], opts?: { positionals?: boolean }): { values: Values<Pick<F, Fm[K]["flags"][number]>>; positionals: string[] };
}

/** The flags' lines, aligned: `  --name ARG   help`. */
function flagLines(spec: CommandSpec): string[] {
  const rows = Object.entries(spec.flags)
    .filter(([, f]) => f.help !== null)
    .map(([name, f]): [string, string] => [`${f.short ? `-${f.short}, ` : ""}--${name}${f.arg ? ` ${f.arg}` : ""}`, f.help!]);
  if (spec.json) rows.push(["--json", spec.json]);
  const width = Math.max(0, ...rows.map(([label]) => label.length)) + 2;
  return rows.flatMap(([label, help]) => help.split("\n").map((line, i) => `  ${(i === 0 ? label : "").padEnd(width)}${line}`));
}

/** The synopsis: as declared, or a line per form (`troupe account add ...`), continuation lines under the form's. */
function synopsisOf(spec: CommandSpec): string {
  if (spec.synopsis !== undefined) return spec.synopsis;
  if (!spec.name || !spec.forms) throw new TroupeError("internal", "a command declares its synopsis, or its name and forms");
  const name = spec.name;
  return Object.entries(spec.forms)
    .map(([form, f]) => {
      const head = `troupe ${name} ${form}`;
      const [first, ...more] = f.usage.split("\n");
      return [`${head}${first ? ` ${first}` : ""}`, ...more.map((line) => `${" ".repeat(head.length + 1)}${line}`)].join("\n");
    })
    .join("\n");
}

/** A command with forms runs the one its first argument names; none, or another, is a usage error listing them. */
function dispatch(spec: CommandSpec): (args: string[]) => Promise<number> {
  const forms = spec.forms ?? {};
  const names = Object.keys(forms);
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
  return async ([sub, ...rest]) => {
    const form = sub !== undefined && Object.hasOwn(forms, sub) ? forms[sub]! : null;
    if (form) return form.run(rest);
    throw new TroupeError("usage", sub ? `no ${spec.name} subcommand '${sub}' (${list})` : `${spec.name} takes a subcommand: ${list}`);
  };
}

function usageOf(spec: CommandSpec): string {
  const lines = [synopsisOf(spec)];
  if (spec.intro) lines.push(spec.intro);
  lines.push(...flagLines(spec));
  if (spec.notes) lines.push(spec.notes);
  if (spec.workspace !== false) lines.push(WORKSPACE);
  return lines.join("\n");
}

function parseWith(names: readonly string[], spec: CommandSpec, args: string[], positionals: boolean) {
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = { ...COMMON };
  for (const n of names) {
    const f = spec.flags[n]!;
    options[n] = { type: f.type, ...(f.short && { short: f.short }), ...(f.multiple && { multiple: true }) };
  }
  try {
    return parseArgs({ args, options, allowPositionals: positionals, strict: true });
  } catch (err) {
    const msg = (err as Error).message.split("\n")[0]!.replace(/\. To specify a positional argument.*$/, "");
    throw new TroupeError("usage", msg, { cause: err });
  }
}

/**
 * A command from its declaration and its body (which parses its arguments with `parse` or
 * `parseForm`); a command with forms and no body of its own runs the form its first argument names.
 */
export function defineCommand<const F extends Flags, const Fm extends Forms<F> = Forms<F>>(spec: CommandSpec<F, Fm>, run?: (args: string[]) => Promise<number>): Command<F, Fm> {
  let usage: string | undefined;
  return {
    spec,
    get usage() {
      return (usage ??= usageOf(spec));
    },
    run: run ?? dispatch(spec),
    parse: (args, opts = {}) => parseWith(Object.keys(spec.flags), spec, args, opts.positionals ?? true) as never,
    parseForm: (form, args, opts = {}) => parseWith(spec.forms?.[form]?.flags ?? [], spec, args, opts.positionals ?? true) as never,
  };
}

export function parseIntFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new TroupeError("usage", `--${name} takes a whole number, not '${value}'`);
  return Number(value);
}

/** `--json`: written as it is (JSON escapes every C0 control itself; a script gets the data as stored). */
export function printJson(value: unknown): Promise<void> {
  return stdout.write(verbatim(`${JSON.stringify(value)}\n`));
}
