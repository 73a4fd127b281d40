import picomatch from "picomatch";
import { isAbsolute, relative } from "node:path";
import { parseRule, type PermissionKind } from "../protocol/permission.ts";
import { AGENT_OWN_COMMANDS } from "../protocol/own-commands.ts";

/**
 * Permission rules, pure (the dashboard imports this to show the rule "allow always" adds).
 * A rule is `Tool` (every call of that tool) or `Tool(pattern)` (parsed by protocol/permission.ts;
 * a bare `*` or `**` is a glob like any other pattern, not "every call"):
 * - Bash: the pattern is a glob over the whole command, `*` matching anything (`npm test*`);
 * - file tools (Edit, Write, MultiEdit, Read, NotebookEdit): a glob over the file's path relative
 *   to the agent's worktree, `**` crossing folders (`src/**`); a path outside the worktree never
 *   matches a relative pattern;
 * - any other tool (WebFetch, an MCP tool): the pattern is a glob over the input's main string
 *   (url, query, ...), and the tool name itself may be a glob (`mcp__github__*`).
 * A deny that matches wins over any allow.
 */

const FILE_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "MultiEdit", "Read", "NotebookEdit"]);

/** What the dashboard shows for a tool: Claude's question and plan tools have dialogs of their own. */
export function kindOf(toolName: string): PermissionKind {
  if (toolName === "AskUserQuestion") return "question";
  if (toolName === "ExitPlanMode") return "plan";
  return "tool";
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The file a file tool acts on, as its input names it. */
function filePath(input: Record<string, unknown>): string | undefined {
  return str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
}

/** The path relative to the worktree (`src/a.ts`); an absolute path outside it stays absolute. */
function relativeToWorktree(path: string, cwd: string | null): string {
  if (!cwd || !isAbsolute(path)) return path.replace(/^\.\//, "");
  const rel = relative(cwd, path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** The one string of a call a rule's pattern is matched against; undefined when the call has none. */
function subjectOf(toolName: string, input: Record<string, unknown>, cwd: string | null): string | undefined {
  if (toolName === "Bash") return str(input.command);
  if (FILE_TOOLS.has(toolName)) {
    const p = filePath(input);
    return p === undefined ? undefined : relativeToWorktree(p, cwd);
  }
  return str(input.url) ?? str(input.query) ?? str(input.pattern) ?? str(input.command) ?? filePath(input);
}

/**
 * What an allow rule's `*` never stands for in a command: the shell's separators, pipes,
 * substitutions and redirections. So `Bash(npm test*)` allows `npm test -- a.test.ts` but not
 * `npm test; curl … | sh`; a rule that means such a command spells it out (`allow always` does).
 */
const ONE_COMMAND = "[^;&|\\n`$()<>]*";
/** Where a command splits into the commands a deny rule is also matched against, one by one. */
const COMMAND_SEPARATORS = /;|&&|\|\||\||&|\n|`|\$\(|\)/;

/**
 * A command glob: `*` is anything (within one simple command when `strict`); `\*`, `\\` and `\n`
 * are a star, a backslash and a newline as such.
 */
function commandRegExp(pattern: string, strict: boolean): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") re += strict ? ONE_COMMAND : "[\\s\\S]*";
    else if (c === "\\" && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      re += next === "n" ? "\\n" : escapeRe(next);
    } else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}

const escapeRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The allow rules of an agent's own troupe commands (`troupe signal`, the way its run ends, and
 * the ones it talks with: AGENT_OWN_COMMANDS), by name and by the absolute path its prompt gives,
 * alone or with arguments. Within one simple command, as every allow rule's `*` is.
 */
export function ownCommandRules(troupeCommand: string): string[] {
  return [`troupe`, literal(troupeCommand, true)].flatMap((t) => AGENT_OWN_COMMANDS.flatMap((c) => [`Bash(${t} ${c})`, `Bash(${t} ${c} *)`]));
}

/** The subject as a pattern matching only itself. */
function literal(subject: string, bash: boolean): string {
  return bash ? subject.replace(/[\\*]/g, "\\$&").replace(/\n/g, "\\n") : subject.replace(/[\\*?[\]{}()!+@]/g, "\\$&");
}

const globCache = new Map<string, (s: string) => boolean>();

function glob(pattern: string, bash: "strict" | "loose" | null): (s: string) => boolean {
  const key = `${bash ?? "p"}:${pattern}`;
  let m = globCache.get(key);
  if (!m) {
    // a command is no path: `*` crosses `/` there (`git *` matches `git log src/a.ts`)
    const re = bash ? commandRegExp(pattern, bash === "strict") : picomatch.makeRe(pattern, { dot: true });
    m = (s: string) => re.test(s);
    globCache.set(key, m);
  }
  return m;
}

/**
 * Whether `rule` covers this call. For Bash an `allow` rule's `*` stays within one simple command
 * (no `;`, `&&`, `|`, substitution or redirection slips through it); a `deny` rule matches the
 * whole command or any command in it (`Bash(rm *)` denies `ls && rm -rf x`).
 */
export function ruleMatches(rule: string, toolName: string, input: Record<string, unknown>, cwd: string | null, effect: "allow" | "deny" = "allow"): boolean {
  const r = parseRule(rule);
  if (!r) return false;
  if (r.tool !== toolName && !(r.tool.includes("*") && glob(r.tool, null)(toolName))) return false;
  if (r.pattern === null) return true;
  const subject = subjectOf(toolName, input, cwd);
  if (subject === undefined) return false;
  // a path outside the worktree stays absolute: a relative allow (`**` too) never lets it through,
  // while a deny is matched against it as it is (`Read(**)` denies /root/.ssh/id_rsa too)
  if (effect === "allow" && FILE_TOOLS.has(toolName) && isAbsolute(subject) && !isAbsolute(r.pattern)) return false;
  if (toolName !== "Bash") return glob(r.pattern, null)(subject);
  if (effect === "allow") return glob(r.pattern, "strict")(subject);
  const m = glob(r.pattern, "loose");
  return m(subject) || subject.split(COMMAND_SEPARATORS).some((part) => part.trim() !== "" && m(part.trim()));
}

export interface RuleSet {
  allow: readonly string[];
  deny: readonly string[];
}

export type RuleVerdict = { behavior: "allow" | "deny"; rule: string } | null;

/** The rules' answer for a call: a matching deny, else a matching allow, else null (the person decides). */
export function decideByRules(rules: RuleSet, toolName: string, input: Record<string, unknown>, cwd: string | null): RuleVerdict {
  const deny = rules.deny.find((r) => ruleMatches(r, toolName, input, cwd, "deny"));
  if (deny) return { behavior: "deny", rule: deny };
  const allow = rules.allow.find((r) => ruleMatches(r, toolName, input, cwd, "allow"));
  return allow ? { behavior: "allow", rule: allow } : null;
}

/**
 * The rule "allow always" adds (and the dialog shows): this exact command for Bash, this file for
 * a file tool, the tool itself for anything else (an MCP tool by its name).
 */
export function suggestRule(toolName: string, input: Record<string, unknown>, cwd: string | null = null): string {
  if (toolName === "Bash" || FILE_TOOLS.has(toolName)) {
    const subject = subjectOf(toolName, input, cwd);
    // escaped, so that the rule matches this call only (`ls \*.ts`, not every ls)
    if (subject !== undefined && !(toolName !== "Bash" && subject.includes("\n"))) return `${toolName}(${literal(subject, toolName === "Bash")})`;
  }
  return toolName;
}
