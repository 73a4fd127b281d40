import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { TroupeError } from "../errors.ts";
import { notAWorkspace, resolveWorkspace } from "../workspace.ts";
import { selfCommand } from "../self.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

/** One unit per workspace: its name carries a hash of the workspace path. */
export function unitName(workspace: string): string {
  return `troupe-${createHash("sha256").update(workspace).digest("hex").slice(0, 12)}.service`;
}

/** systemd quoting for an ExecStart word: a word with spaces or quotes goes in double quotes. */
const quote = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `"${w.replace(/(["\\])/g, "\\$1").replace(/%/g, "%%")}"`);

/**
 * A systemd user unit that starts the workspace's daemon at login, so that agents a reboot
 * interrupted are picked up without anyone running troupe first. The daemon exits by itself when
 * idle; `Restart=on-failure` brings it back only after a crash.
 */
export function unitText(opts: { workspace: string; command: string[] }): string {
  const exec = [...opts.command, "daemon", "run", "--workspace", opts.workspace].map(quote).join(" ");
  return [
    "[Unit]",
    `Description=troupe daemon for ${opts.workspace}`,
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${exec}`,
    `WorkingDirectory=${quote(opts.workspace)}`,
    "Restart=on-failure",
    "RestartSec=5",
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

/** Why systemd user services cannot be used here, or null when they can. */
export function systemdUnavailable(env: NodeJS.ProcessEnv = process.env): string | null {
  // systemd as init leaves /run/systemd/system (sd_booted(3)); the user manager listens under XDG_RUNTIME_DIR
  if (!existsSync("/run/systemd/system")) return "systemd is not this machine's init";
  if (!env.XDG_RUNTIME_DIR || !existsSync(join(env.XDG_RUNTIME_DIR, "systemd"))) return "no systemd user manager runs for this user (no $XDG_RUNTIME_DIR/systemd)";
  return null;
}

export const command = defineCommand(
  {
    synopsis: "troupe service install [--print] [--json]",
    intro: `  writes ~/.config/systemd/user/troupe-<hash>.service and enables it, so agents a reboot
  interrupted are picked up at login; --print shows the unit without installing it`,
    flags: { print: { type: "boolean", help: null } },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [action, ...extra] = positionals;
  if (action !== "install" || extra.length) throw new TroupeError("usage", "service takes one action: install");
  const ws = resolveWorkspace({ workspace: values.workspace });
  // a unit would start a daemon there at every login, and make a workspace of the folder
  if (ws.unclaimed) throw notAWorkspace(ws);
  const name = unitName(ws.root);
  const text = unitText({ workspace: ws.root, command: selfCommand() });
  if (values.print) {
    await stdout.write(text);
    return 0;
  }
  const why = systemdUnavailable();
  if (why) {
    throw new TroupeError(
      "invalid_state",
      `cannot install a systemd user service here: ${why}. Start the daemon at login another way, e.g. '${[...selfCommand(), "daemon", "start", "--workspace", ws.root].map(quote).join(" ")}' in your login profile or an @reboot crontab line ('troupe service install --print' shows the unit for a machine with systemd)`,
    );
  }
  const dir = join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "systemd", "user");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  for (const cmd of [["daemon-reload"], ["enable", name]]) {
    const r = spawnSync("systemctl", ["--user", ...cmd], { encoding: "utf8" });
    if (r.status !== 0) throw new TroupeError("internal", `wrote ${path}, but 'systemctl --user ${cmd.join(" ")}' failed: ${(r.stderr || r.error?.message || "").trim()}`);
  }
  if (values.json) await printJson({ unit: path, name });
  else await stdout.write(`installed ${path} (enabled: the daemon starts at login; 'systemctl --user start ${name}' starts it now)\n`);
  return 0;
}
