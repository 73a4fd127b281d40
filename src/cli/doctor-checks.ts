import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { PROVIDERS, detectProviders } from "../../providers/index.ts";
import { clientFor } from "../client/connect.ts";
import { TroupeError } from "../errors.ts";
import { readLockFile } from "../lock-file.ts";
import { BUILD_VERSION, compareVersions } from "../self.ts";
import { readUserConfig, userConfigPath } from "../user-config.ts";
import { readWorkspaceConfig } from "../workspace-config.ts";
import type { Workspace } from "../workspace.ts";
import { systemdUnavailable } from "./systemd-unit.ts";
import { resolveSandbox } from "../sandbox/policy.ts";
import { sandboxLayers } from "../sandbox/layers.ts";
import { sandboxAvailable } from "../sandbox/available.ts";

/** One line of `troupe doctor`: what was checked, whether it is fine, and whether troupe needs it. */
export interface Check {
  name: string;
  ok: boolean;
  /** A check that fails while needed makes doctor exit 1; the others only inform. */
  needed: boolean;
  detail: string;
}

const need = (name: string, ok: boolean, detail: string): Check => ({ name, ok, needed: true, detail });
const optional = (name: string, ok: boolean, detail: string): Check => ({ name, ok, needed: false, detail });

/** `git worktree remove`, the newest git command troupe runs, came with git 2.17. */
const GIT_MIN = [2, 17];

/** A command's first line of output, or null when it cannot run. */
function firstLine(cmd: string, args: string[]): string | null {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 5_000, stdio: ["ignore", "pipe", "pipe"] });
  if (r.error || r.status !== 0) return null;
  return (r.stdout || r.stderr).trim().split("\n")[0] ?? "";
}

export function checkGit(): Check {
  const line = firstLine("git", ["--version"]);
  if (line === null) return need("git", false, "not found on PATH: install git (2.17 or newer); agents work in git worktrees");
  const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(line) ?? []).slice(1).map(Number);
  const recent = major > GIT_MIN[0]! || (major === GIT_MIN[0] && minor >= GIT_MIN[1]!);
  return need("git", recent, recent ? line : `${line} is older than 2.17, which troupe needs (git worktree remove)`);
}

/** Unix socket paths longer than this do not fit sockaddr_un (108 bytes with the NUL). */
const MAX_SOCKET_PATH = 107;

/** The folder of the workspace's socket (runtimeDir() made and checked it in resolveWorkspace): its mode and owner. */
export function checkRuntimeDir(ws: Workspace): Check {
  const dir = dirname(ws.socket);
  const from = ws.socketExplicit ? " (TROUPE_SOCKET)" : "";
  if (Buffer.byteLength(ws.socket) > MAX_SOCKET_PATH) {
    return need("runtime dir", false, `the socket path ${ws.socket}${from} is longer than ${MAX_SOCKET_PATH} bytes: set TROUPE_SOCKET to a shorter one`);
  }
  let st;
  try {
    st = statSync(dir);
  } catch {
    return need("runtime dir", false, `${dir}${from} does not exist`);
  }
  const mode = (st.mode & 0o777).toString(8).padStart(4, "0");
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return need("runtime dir", false, `${dir}${from} belongs to uid ${st.uid}, not to you (uid ${uid})`);
  if (!ws.socketExplicit && mode !== "0700") return need("runtime dir", false, `${dir} is ${mode}, not 0700: another user could reach the sockets`);
  return need("runtime dir", true, `${dir}${from}: ${mode}, yours`);
}

export function checkWorkspace(ws: Workspace): Check {
  if (!existsSync(ws.root)) return need("workspace", false, `${ws.root} does not exist`);
  try {
    readWorkspaceConfig(ws.stateDir);
  } catch (err) {
    return need("workspace", false, (err as Error).message);
  }
  if (!existsSync(join(ws.root, ".git"))) {
    return optional("workspace", false, `${ws.root} is not in a git repository: agents there need --no-worktree (run troupe in a repository)`);
  }
  const config = existsSync(join(ws.stateDir, "config.json")) ? "; .troupe/config.json is valid" : "";
  return need("workspace", true, `${ws.root}: a git repository${config}`);
}

/** How long the daemon may take to say it is alive before doctor calls it stuck. */
const HEALTH_TIMEOUT_MS = 5_000;

export async function checkDaemon(ws: Workspace): Promise<Check> {
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), HEALTH_TIMEOUT_MS)));
    const h = await Promise.race([clientFor(ws).health(), late]).finally(() => clearTimeout(timer));
    if (h === null) {
      const held = readLockFile(ws.stateDir);
      const who = held ? `pid ${held.pid} holds the workspace` : `the daemon on ${ws.socket}`;
      return need("daemon", false, `${who} but does not answer within ${HEALTH_TIMEOUT_MS / 1000} s (stopped or stuck): 'troupe daemon restart', or kill it`);
    }
    const skew = compareVersions(h.version, BUILD_VERSION);
    if (skew > 0) return need("daemon", false, `pid ${h.pid} runs troupe ${h.version}, newer than this ${BUILD_VERSION}: it refuses this troupe (run the newer one, or 'troupe daemon restart')`);
    const note = skew < 0 ? `; an older build (${h.version}): the next command restarts it, agents keep running` : "";
    return need("daemon", true, `pid ${h.pid}, serving since ${new Date(h.startedAt).toISOString()}${note}`);
  } catch (err) {
    if (err instanceof TroupeError && err.code === "daemon_unavailable") return need("daemon", true, "not running: the first command that needs it starts it");
    return need("daemon", false, (err as Error).message);
  }
}

/** Each agent CLI troupe knows (the generic provider needs none): installed with its version, or how to install it. */
export async function checkProviders(): Promise<Check[]> {
  const found = await detectProviders({}, PROVIDERS.filter((p) => p.binary !== null));
  return found.map((d) =>
    optional(d.name, d.installed, d.installed ? `${d.version ?? "installed (no version reported)"} (${d.path})` : `not installed: ${d.install}`),
  );
}

export function checkTmux(): Check {
  const line = firstLine("tmux", ["-V"]);
  return line === null
    ? optional("tmux", false, "not installed: to keep the dashboard or an attached agent across an SSH drop, run them in tmux (apt install tmux, brew install tmux)")
    : optional("tmux", true, `${line}: run the dashboard or 'troupe attach' in it to keep them across an SSH drop`);
}

export function checkSystemd(): Check {
  const why = systemdUnavailable();
  return why === null ? optional("systemd", true, "a user manager runs: 'troupe service install' can start the daemon at login") : optional("systemd", false, `${why}: 'troupe service install' needs it`);
}

/** The program a notify command starts, when its first word names one (an assignment or an expansion cannot be told ahead). */
function programOf(command: string): string | null {
  const word = command.trim().split(/\s+/)[0] ?? "";
  return /^[\w./+-]+$/.test(word) ? word : null;
}

export function checkNotify(): Check {
  let notify;
  try {
    notify = readUserConfig().notify;
  } catch (err) {
    return need("notify", false, (err as Error).message);
  }
  const desktop = notify?.desktop ? `; desktop notifications: ${notify.desktop === true ? "on" : notify.desktop}` : "";
  if (!notify?.command) return optional("notify", true, `no notify.command in ${userConfigPath()} (optional)${desktop}`);
  const program = programOf(notify.command);
  if (program === null) return need("notify", true, `notify.command is set (not checked: it starts with an assignment or expansion)${desktop}`);
  const r = spawnSync("sh", ["-c", 'command -v "$1"', "sh", program], { encoding: "utf8", timeout: 5_000 });
  if (r.status !== 0) return need("notify", false, `notify.command runs '${program}', which is not on PATH: notifications fail (see .troupe/daemon.log)`);
  return need("notify", true, `notify.command runs ${r.stdout.trim()}${desktop}`);
}

/** Whether agents spawned here now would run sandboxed (src/sandbox/), and why not. */
export function checkSandbox(ws: Workspace | null): Check {
  let settings;
  try {
    settings = resolveSandbox(ws ? sandboxLayers(ws.stateDir) : []);
  } catch {
    return optional("sandbox", false, "not known while the workspace config is broken (see workspace)");
  }
  const { mode, network } = settings;
  if (mode === "off") return optional("sandbox", false, "sandbox mode off (config): agents run unsandboxed, as your own user");
  const available = sandboxAvailable();
  if (!available.ok) {
    return mode === "strict"
      ? need("sandbox", false, `sandbox mode strict, but ${available.why}: every spawn is refused`)
      : optional("sandbox", false, `agents run unsandboxed: ${available.why} (sandbox mode auto)`);
  }
  const version = available.tool === "bwrap" ? (firstLine(available.path, ["--version"]) ?? "bubblewrap") : "Seatbelt";
  return need("sandbox", true, `${version} (${available.path}): each agent runs in a sandbox of its own (mode ${mode}, network ${network})`);
}
