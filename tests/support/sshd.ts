/**
 * A real OpenSSH server of the test's own (Debian's openssh-server; .ci/run installs it): on
 * 127.0.0.1 on a free port, run as the current user, with a host key and a user key made for it.
 * `sshCommand` is what TROUPE_SSH_COMMAND is set to: `ssh -F <its own config>` (OpenSSH reads
 * ~/.ssh/config from the passwd home, not $HOME, so a test never touches the real one).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer, connect } from "node:net";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "./sandbox.ts";
import { needed } from "./tools.ts";

const SSHD = ["/usr/sbin/sshd", "/usr/bin/sshd"].find((p) => existsSync(p)) ?? null;
export const HAVE_SSHD = needed("OpenSSH (sshd, ssh, ssh-keygen)", SSHD !== null && Bun.spawnSync(["sh", "-c", "command -v ssh && command -v ssh-keygen"]).exitCode === 0);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}

function keygen(path: string): void {
  const r = Bun.spawnSync(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "troupe-test", "-f", path]);
  if (r.exitCode !== 0) throw new Error(`ssh-keygen: ${r.stderr.toString()}`);
}

export class Sshd {
  readonly dir: string;
  readonly port: number;
  /** `ssh -F <config>`: TROUPE_SSH_COMMAND for this server. */
  readonly sshCommand: string;
  /** The current user, as the passwd database names it (os.userInfo() reads $USER, which a test run may lack). */
  readonly user = Bun.spawnSync(["id", "-un"]).stdout.toString().trim();
  private proc: ReturnType<typeof Bun.spawn> | null = null;

  private constructor(dir: string, port: number) {
    this.dir = dir;
    this.port = port;
    this.sshCommand = `ssh -F ${join(dir, "ssh_config")}`;
  }

  /** `env`: variables sshd sets in every session (SetEnv), e.g. a HOME of the test's own. */
  static async start(env: Record<string, string> = {}): Promise<Sshd> {
    if (!SSHD) throw new Error("sshd is not installed (apt-get install openssh-server)");
    const dir = mkdtempSync("/tmp/sshd-");
    // the leak check looks for processes naming this folder (sshd, its sessions)
    Sandbox.runtimes.push(dir);
    const port = await freePort();
    const s = new Sshd(dir, port);
    keygen(join(dir, "host_key"));
    keygen(join(dir, "user_key"));
    writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "user_key.pub")), { mode: 0o600 });
    const hostPub = readFileSync(join(dir, "host_key.pub"), "utf8").trim().split(" ").slice(0, 2).join(" ");
    writeFileSync(join(dir, "known_hosts"), `[127.0.0.1]:${port} ${hostPub}\n`);
    const setEnv = Object.entries(env).map(([k, v]) => `${k}=${v}`).join(" ");
    writeFileSync(
      join(dir, "sshd_config"),
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${join(dir, "host_key")}`,
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        // the keys live under /tmp (world-writable): not a home folder's strict modes
        "StrictModes no",
        "UsePAM no",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        "PermitRootLogin prohibit-password",
        "PrintMotd no",
        "LogLevel ERROR",
        ...(setEnv ? [`SetEnv ${setEnv}`] : []),
      ].join("\n") + "\n",
    );
    writeFileSync(
      join(dir, "ssh_config"),
      [
        "Host *",
        `  IdentityFile ${join(dir, "user_key")}`,
        "  IdentitiesOnly yes",
        `  UserKnownHostsFile ${join(dir, "known_hosts")}`,
        "  StrictHostKeyChecking yes",
        `  User ${s.user}`,
        "  LogLevel ERROR",
      ].join("\n") + "\n",
    );
    // sshd as root wants its privilege separation folder
    if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
    s.proc = Bun.spawn([SSHD, "-D", "-e", "-f", join(dir, "sshd_config")], { stdout: "ignore", stderr: "pipe" });
    try {
      await waitFor("sshd to listen", () => accepts(port), 10_000);
    } catch (err) {
      s.close();
      throw err;
    }
    return s;
  }

  /** sshd's own process id (its sessions are its descendants). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** Runs `command` on the server through ssh (as troupe does), for set-up checks. */
  exec(command: string): { code: number; stdout: string; stderr: string } {
    const r = Bun.spawnSync(["sh", "-c", `${this.sshCommand} -p ${this.port} 127.0.0.1 "$@"`, "ssh", command]);
    return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  }

  /**
   * Freezes (SIGSTOP) or thaws (SIGCONT) every session process under sshd, not sshd itself: a
   * host gone silent (asleep, off the network) without closing anything.
   */
  freezeSessions(freeze: boolean): number {
    const root = this.proc?.pid;
    if (!root) return 0;
    let n = 0;
    for (const pid of processesUnder(root)) {
      try {
        process.kill(pid, freeze ? "SIGSTOP" : "SIGCONT");
        n++;
      } catch {
        // gone meanwhile
      }
    }
    return n;
  }

  /** Stops sshd (its sessions end with it) and removes its folder. */
  close(): void {
    if (this.proc && this.proc.exitCode === null) {
      this.proc.kill("SIGTERM");
      const deadline = Date.now() + 5_000;
      while (this.proc.exitCode === null && Date.now() < deadline) Bun.sleepSync(20);
      if (this.proc.exitCode === null) this.proc.kill("SIGKILL");
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Every process under `root` (its descendants, not itself) whose command line contains `match`. */
export function processesUnder(root: number, match = ""): number[] {
  const parents = new Map<number, number>();
  const lines = new Map<number, string>();
  for (const e of readdirSync("/proc")) {
    const pid = Number(e);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      lines.set(pid, readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  return [...parents.keys()].filter((pid) => under(pid) && lines.get(pid)!.includes(match));
}

/**
 * A remote host for `local`: a sandbox of its own behind a real sshd whose sessions reach its
 * daemon, added to `local` as remote `name` (`troupe remote add`). `env` is what a local command
 * needs to reach it (TROUPE_SSH_COMMAND, a patient timeout).
 */
export async function remoteHost(local: Sandbox, name = "box"): Promise<{ host: Sandbox; sshd: Sshd; env: Record<string, string> }> {
  const host = new Sandbox();
  const hostHome = join(host.runtime, "home");
  mkdirSync(hostHome);
  const sshd = await Sshd.start({ HOME: hostHome, TROUPE_SOCKET: host.socket, XDG_STATE_HOME: host.env.XDG_STATE_HOME!, XDG_CONFIG_HOME: host.env.XDG_CONFIG_HOME!, NO_COLOR: "1" });
  const env = { TROUPE_SSH_COMMAND: sshd.sshCommand, TROUPE_REMOTE_TIMEOUT: "20" };
  const added = await local.run(["remote", "add", name, `127.0.0.1:${sshd.port}`, "--path", host.dir, "--troupe", BIN], { env });
  if (added.code !== 0) throw new Error(`troupe remote add ${name}: ${added.stderr}`);
  return { host, sshd, env };
}
