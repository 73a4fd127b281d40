import { TroupeError } from "../errors.ts";
import { parseDestination } from "../client/link/ssh.ts";
import { probeRemote, remoteAddress } from "../client/remote.ts";
import { RemoteNameSchema, RemoteSchema, type Remote } from "../protocol/remote.ts";
import { findRemote, readRemotes, remotesPath, writeRemotes } from "../remotes.ts";
import { defineCommand, printJson } from "./command.ts";
import { table } from "./format.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand({
  name: "remote",
  intro: `  a remote is a workspace on another machine, reached with OpenSSH (ssh, or $TROUPE_SSH_COMMAND as git's
  GIT_SSH_COMMAND): your ssh config, agent, keys and jump hosts apply; troupe keeps no secret. The link is
  ssh -T to the host running 'troupe proxy' for PATH there; nothing listens on TCP. Then 'troupe ls'
  with the remote's name (or -A), and spawn, logs, conversations, answer, allow, deny, permissions,
  approve, stop, resume, review and attach with it, act there.`,
  flags: {
    path: { type: "string", arg: "PATH", help: "the workspace's folder there (absolute, or from the login folder: ~/src/api)" },
    troupe: { type: "string", arg: "CMD", help: "the command that runs troupe there (default: troupe, then ~/.local/bin/troupe)" },
    slots: { type: "string", arg: "N", help: "a host of the pool: most agents at once dispatch places there (1 to 64; set: none takes it out)" },
  },
  forms: {
    add: { usage: "NAME [user@]host[:port] --path PATH [--troupe CMD] [--slots N]", flags: ["path", "troupe", "slots"], run: add },
    set: { usage: "NAME [--path PATH] [--troupe CMD] [--slots N|none]", flags: ["path", "troupe", "slots"], run: set },
    ls: { usage: "[--json]     each remote: reachable? its troupe's version and API, its agents", flags: [], run: list },
    rm: { usage: "NAME", flags: [], run: remove },
    install: { usage: "NAME    copies a troupe of this version to ~/.local/bin/troupe there", flags: [], run: install },
  },
  notes: `  Kept in $XDG_CONFIG_HOME/troupe/remotes.json (~/.config/troupe/), never in a repository.
  A remote is reached within $TROUPE_REMOTE_TIMEOUT seconds (default 10) or reported unreachable.`,
  workspace: false,
});

async function install(args: string[]): Promise<number> {
  const { positionals } = command.parseForm("install", args);
  const [name, ...extra] = positionals;
  if (!name || extra.length) throw new TroupeError("usage", "troupe remote install NAME");
  const { installRemote } = await import("./remote-install.ts");
  return installRemote(name, findRemote(name));
}

async function add(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("add", args);
  const [name, destination, ...extra] = positionals;
  if (!name || !destination || extra.length) throw new TroupeError("usage", "troupe remote add NAME [user@]host[:port] --path PATH");
  const validName = RemoteNameSchema.safeParse(name);
  if (!validName.success) throw new TroupeError("usage", validName.error.issues[0]!.message);
  const dest = parseDestination(destination);
  if (!dest) throw new TroupeError("usage", `'${destination}' is not [user@]host[:port]`);
  if (!values.path) throw new TroupeError("usage", "give --path PATH: the workspace's folder on that machine");
  const slots = values.slots === undefined ? undefined : slotsFlag(values.slots, false);
  const parsed = checked({ ...dest, path: values.path, ...(values.troupe && { troupe: values.troupe }), ...(slots !== undefined && { slots }) });
  const remotes = readRemotes();
  if (remotes[name]) throw new TroupeError("conflict", `a remote '${name}' exists (${remoteAddress(remotes[name])}); 'troupe remote rm ${name}' first`);
  writeRemotes({ ...remotes, [name]: parsed });
  if (values.json) await printJson({ name, ...parsed });
  else await stdout.write(`added ${name}: ${remoteAddress(parsed)}${inPool(parsed)} (in ${remotesPath()}); 'troupe remote ls' checks it\n`);
  return 0;
}

async function set(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("set", args);
  const [name, ...extra] = positionals;
  if (!name || extra.length) throw new TroupeError("usage", "troupe remote set NAME [--path PATH] [--troupe CMD] [--slots N|none]");
  if (values.path === undefined && values.troupe === undefined && values.slots === undefined) throw new TroupeError("usage", "give what changes: --path PATH, --troupe CMD or --slots N|none");
  const remotes = readRemotes();
  const { slots: current, ...rest } = findRemote(name);
  const slots = values.slots === undefined ? current : slotsFlag(values.slots, true);
  const parsed = checked({ ...rest, ...(values.path !== undefined && { path: values.path }), ...(values.troupe !== undefined && { troupe: values.troupe }), ...(slots !== undefined && { slots }) });
  writeRemotes({ ...remotes, [name]: parsed });
  if (values.json) await printJson({ name, ...parsed });
  else await stdout.write(`${name}: ${remoteAddress(parsed)}${inPool(parsed)}\n`);
  return 0;
}

/** `--slots N`: a whole number from 1 to 64, or (for set) none, which takes the remote out of the pool. */
function slotsFlag(value: string, noneAllowed: boolean): number | undefined {
  if (noneAllowed && value === "none") return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 64) throw new TroupeError("usage", `--slots takes a whole number from 1 to 64${noneAllowed ? " or none" : ""}, not '${value}'`);
  return n;
}

function checked(remote: unknown): Remote {
  const parsed = RemoteSchema.safeParse(remote);
  if (!parsed.success) throw new TroupeError("usage", `${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

const inPool = (r: Remote) => (r.slots === undefined ? "" : `, a host of the pool with ${r.slots} slot${r.slots === 1 ? "" : "s"}`);

async function list(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("ls", args);
  if (positionals.length) throw new TroupeError("usage", `unexpected argument '${positionals[0]}'`);
  const remotes = Object.entries(readRemotes());
  const states = await Promise.all(remotes.map(([name, r]) => probeRemote(name, r)));
  if (values.json) {
    await printJson(remotes.map(([name, r], i) => ({ name, ...r, ...states[i] })));
    return 0;
  }
  if (!remotes.length) {
    await stdout.write("no remotes; add one with 'troupe remote add NAME [user@]host[:port] --path PATH'\n");
    return 0;
  }
  const rows = remotes.map(([name, r]: [string, Remote], i) => {
    const s = states[i]!;
    const state = s.reachable && s.error === null ? "reachable" : (s.error ?? "unreachable");
    return [name, remoteAddress(r), s.version ? `${s.version} (API ${s.api}, ${s.platform})` : "-", s.agents === null ? "-" : String(s.agents), state];
  });
  await stdout.write(table(["NAME", "WORKSPACE", "TROUPE", "AGENTS", "STATE"], rows));
  return 0;
}

async function remove(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("rm", args);
  const [name, ...extra] = positionals;
  if (!name || extra.length) throw new TroupeError("usage", "troupe remote rm NAME");
  const remotes = readRemotes();
  const r = findRemote(name);
  delete remotes[name];
  writeRemotes(remotes);
  if (values.json) await printJson({ name, ...r });
  else await stdout.write(`removed ${name} (${remoteAddress(r)}); nothing on that machine changed\n`);
  return 0;
}
