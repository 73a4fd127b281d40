import { TroupeError } from "../errors.ts";
import type { Account } from "../protocol/account.ts";
import { connectAsUser } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";
import { ago as since } from "./format.ts";

/** `troupe account add|ls|rm|reset`: the user's provider accounts, shared by every workspace. */
export const command = defineCommand({
  name: "account",
  flags: {
    token: { type: "string", arg: "T", help: "claude: a long-lived OAuth token (claude setup-token); codex: CODEX_API_KEY; gemini: GEMINI_API_KEY; '-' reads it from stdin" },
    "config-dir": { type: "string", arg: "D", help: "the CLI's config folder, logged in (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME)" },
    env: { type: "string", multiple: true, arg: "NAME=VALUE", help: "variables given to the agent as they are" },
    provider: { type: "string", help: null },
    name: { type: "string", help: null },
  },
  forms: {
    add: { usage: "--provider P (--token TOKEN | --config-dir DIR | --env NAME=VALUE ...) [--name N] [--json]", flags: ["provider", "token", "config-dir", "env", "name"], run: add },
    ls: { usage: "[--json]", flags: [], run: list },
    rm: { usage: "ACCOUNT [--json]", flags: [], run: remove },
    reset: { usage: "ACCOUNT [--json]   it works again: no longer spent nor refused (blocked agents retry at once)", flags: [], run: reset },
  },
  notes: `  Each new agent takes the least recently used available account of its provider (troupe spawn --account pins one);
  on a spent quota or a refused credential it moves to the next, or waits (blocked) for the first reset
  (a refused account stays invalid until 'troupe account reset' or rm). Secrets stay in a 0600 file
  under $XDG_STATE_HOME/troupe (never in ls, --json, logs or events); --json: [{"id", "name", "provider",
  "kind", "status": "available"|"exhausted"|"invalid", "exhaustedUntil", "runsOutAt", "windows", "lastUsedAt", "problem"}]
  Forecast: from the usage windows its runs report (Claude's), when an account runs out at the pace it is
  used; a new agent expected to outlast it (dispatch: the phase's median task) takes another if one lasts.`,
});

async function add(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("add", args);
  if (positionals.length) throw new TroupeError("usage", `unexpected argument '${positionals[0]}'`);
  if (!values.provider) throw new TroupeError("usage", "give --provider NAME");
  // `--token -` reads it from stdin, so it is never in a process list or a shell history
  const token = values.token === "-" ? (await readStdin()).trim() : values.token;
  let env: Record<string, string> | undefined;
  if (values.env) {
    env = {};
    for (const kv of values.env) {
      const eq = kv.indexOf("=");
      if (eq < 1) throw new TroupeError("usage", `--env takes NAME=VALUE, not '${kv.split("=")[0]}'`);
      env[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
  }
  const client = await connectAsUser(values.workspace);
  const account = await client.addAccount({ provider: values.provider, name: values.name, token, configDir: values["config-dir"], env });
  if (values.json) await printJson(account);
  else await stdout.write(`${account.name} (${account.id}) ${account.provider} ${account.kind}\n`);
  return 0;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function list(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("ls", args);
  if (positionals.length) throw new TroupeError("usage", "account ls takes no arguments");
  const client = await connectAsUser(values.workspace);
  const accounts = await client.accounts();
  if (values.json) await printJson(accounts);
  else await stdout.write(formatAccounts(accounts, Date.now()));
  return 0;
}

async function remove(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("rm", args);
  if (positionals.length !== 1) throw new TroupeError("usage", "give one account (id or name)");
  const client = await connectAsUser(values.workspace);
  const account = await client.removeAccount(positionals[0]!);
  if (values.json) await printJson(account);
  else await stdout.write(`removed ${account.name} (${account.id})\n`);
  return 0;
}

async function reset(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("reset", args);
  if (positionals.length !== 1) throw new TroupeError("usage", "give one account (id or name)");
  const client = await connectAsUser(values.workspace);
  const account = await client.resetAccount(positionals[0]!);
  if (values.json) await printJson(account);
  else await stdout.write(`${account.name} (${account.id}) ${account.status === "invalid" ? `still invalid: ${account.problem}` : account.status}\n`);
  return 0;
}

/** One line per account: name, provider, kind, status (with its reset), last use. No secret is known here. */
function formatAccounts(accounts: Account[], now: number): string {
  if (!accounts.length) return "no accounts: agents run on the spawning environment's credentials ('troupe account add')\n";
  const ago = (t: number | null) => (t === null ? "never used" : `used ${Math.max(0, Math.round((now - t) / 60_000))}m ago`);
  const status = (a: Account) =>
    a.status === "exhausted" && a.exhaustedUntil !== null ? `exhausted until ${new Date(a.exhaustedUntil).toISOString()}` : a.status === "invalid" ? `invalid: ${a.problem}` : a.status;
  return accounts.map((a) => `${a.name}  ${a.id}  ${a.provider}  ${a.kind}  ${status(a)}${forecast(a, now)}  ${ago(a.lastUsedAt)}\n`).join("");
}

/** What its windows say: ` · runs out in ~12m (five_hour 91%, seven_day 40%)`; nothing when its provider reported none. */
function forecast(a: Account, now: number): string {
  if (!a.windows.length) return "";
  const used = a.windows.map((w) => `${w.window} ${Math.round(w.utilization * 100)}%`).join(", ");
  const when = a.runsOutAt !== null ? `runs out in ~${since(now, a.runsOutAt)}` : a.status === "available" ? "lasts to its resets" : "used";
  return ` · ${when} (${used})`;
}
