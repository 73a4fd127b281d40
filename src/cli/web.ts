import { closeSync, openSync } from "node:fs";
import { TroupeError } from "../errors.ts";
import { selfCommand } from "../self.ts";
import { defineCommand, parseIntFlag, printJson } from "./command.ts";
import { table } from "./format.ts";
import { SOURCE_FLAGS, sourceFlagsOf } from "./sources.ts";
import { stderr, stdout } from "./streams.ts";

/** The port the page listens on unless told: free of the usual dev servers'. */
const DEFAULT_PORT = 8377;
/** How long `troupe web start` waits for the process it started to answer. */
const START_WAIT_MS = 15_000;

const SERVE_FLAGS = ["port", "host", "public-url", "workspace", "remote", "all-workspaces"] as const;

export const command = defineCommand({
  name: "web",
  intro: `  the dashboard's core as a web page, for a phone or any browser: a process of yours beside the
  daemons that follows the same sources as the dashboard (this workspace, --workspace, --remote, -A).
  It listens on 127.0.0.1 unless told; reach it through ssh -L or a tunnel (docs/web.md). A login
  link works once; the device it was opened on stays logged in until revoked.`,
  flags: {
    port: { type: "string", arg: "N", help: `the page's port (default ${DEFAULT_PORT}; 0: any free one)` },
    host: { type: "string", arg: "ADDR", help: "the address to listen on (default 127.0.0.1; another is said with a warning)" },
    "public-url": { type: "string", arg: "URL", help: "the address a phone uses (an ssh -L port, a Tailscale name): the login link,\nthe origin checks and the cookie's Secure flag follow it" },
    ...SOURCE_FLAGS,
    revoke: { type: "string", arg: "ID", help: "end that device's login (troupe web logins lists them)" },
  },
  forms: {
    start: { usage: "[--port N] [--host ADDR] [--public-url URL] [--workspace DIR]... [--remote NAME]... [-A]\n   starts it, detached, and prints a login link (and its QR code)", flags: [...SERVE_FLAGS], run: start },
    run: { usage: "[same flags as start]   in the foreground (a service unit, a terminal)", flags: [...SERVE_FLAGS], run: foreground },
    login: { usage: "   a new one-time login link, for another device", flags: [], run: login },
    logins: { usage: "[--revoke ID] [--json]   the devices logged in", flags: ["revoke"], run: logins },
    status: { usage: "[--json]   where it listens and what it follows", flags: [], run: status },
    stop: { usage: "", flags: [], run: stop },
  },
  workspace: false,
});

type ServeValues = ReturnType<typeof command.parseForm<"start">>["values"];

function settings(values: ServeValues) {
  const port = parseIntFlag("port", values.port) ?? DEFAULT_PORT;
  if (port < 0 || port > 65535) throw new TroupeError("usage", `--port ${port}: a port is 0 to 65535`);
  return { host: values.host ?? "127.0.0.1", port, publicUrl: values["public-url"] ?? null, sources: sourceFlagsOf(values) };
}

/** The flags as `troupe web run` takes them again, for the detached process. */
function passOn(values: ServeValues): string[] {
  const out: string[] = [];
  for (const k of ["port", "host", "public-url"] as const) if (values[k] !== undefined) out.push(`--${k}`, String(values[k]));
  const ws = values.workspace as unknown;
  for (const w of ws === undefined ? [] : Array.isArray(ws) ? ws : [ws]) out.push("--workspace", String(w));
  for (const r of values.remote ?? []) out.push("--remote", r);
  if (values["all-workspaces"]) out.push("-A");
  return out;
}

/** The login link, and its QR code drawn in the terminal for a phone's camera. */
async function printLogin(url: string): Promise<void> {
  const { default: QRCode } = await import("qrcode");
  const qr = await QRCode.toString(url, { type: "terminal", small: true });
  await stdout.write(`${qr}\nlog in (once, within 10 minutes): ${url}\n`);
}

async function warnHost(host: string): Promise<void> {
  const { isLoopback } = await import("../web/run.ts");
  if (!isLoopback(host)) await stderr.write(`troupe web: warning: listening on ${host}, not only this machine: anyone who reaches it sees the login page\n`);
}

async function start(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("start", args);
  if (positionals.length) throw new TroupeError("usage", `unexpected argument '${positionals[0]}'`);
  const s = settings(values);
  if (s.publicUrl) (await import("../web/run.ts")).publicOrigin(s.publicUrl);
  const control = await import("../web/control.ts");
  const running = await control.webRunning();
  if (running) {
    await stdout.write(`troupe web already runs at ${running.origin} (troupe web stop first to change how)\n`);
    await printLogin(await control.newLogin());
    return 0;
  }
  await warnHost(s.host);
  const { spawn } = await import("node:child_process");
  const log = openSync(control.webLog(), "a", 0o600);
  const [cmd, ...rest] = selfCommand();
  const child = spawn(cmd!, [...rest, "web", "run", ...passOn(values)], { detached: true, stdio: ["ignore", log, log], env: process.env });
  child.unref();
  closeSync(log);
  let exited: number | null = null;
  child.once("exit", (code) => (exited = code ?? 1));
  const deadline = Date.now() + START_WAIT_MS;
  for (;;) {
    const up = await control.webRunning();
    if (up) {
      await stdout.write(`troupe web runs at ${up.origin}, following ${up.sources.map((x) => x.label).join(", ")}\n`);
      await printLogin(await control.newLogin());
      return 0;
    }
    if (exited !== null || Date.now() > deadline) {
      const { readFileSync } = await import("node:fs");
      const last = readFileSync(control.webLog(), "utf8").trim().split("\n").at(-1) ?? "";
      throw new TroupeError("internal", `troupe web did not start${last ? `: ${last.replace(/^troupe: /, "")}` : ""} (its log: ${control.webLog()})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function foreground(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("run", args);
  if (positionals.length) throw new TroupeError("usage", `unexpected argument '${positionals[0]}'`);
  const s = settings(values);
  await warnHost(s.host);
  const { runWeb } = await import("../web/run.ts");
  return runWeb(s);
}

async function login(args: string[]): Promise<number> {
  const { positionals } = command.parseForm("login", args);
  if (positionals.length) throw new TroupeError("usage", `unexpected argument '${positionals[0]}'`);
  const { newLogin } = await import("../web/control.ts");
  await printLogin(await newLogin());
  return 0;
}

async function logins(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("logins", args);
  if (positionals.length) throw new TroupeError("usage", `unexpected argument '${positionals[0]}'`);
  const control = await import("../web/control.ts");
  if (values.revoke !== undefined) {
    await control.revokeLogin(values.revoke);
    if (values.json) await printJson({ revoked: values.revoke });
    else await stdout.write(`revoked ${values.revoke}: that device is logged out at its next request\n`);
    return 0;
  }
  const list = await control.listLogins();
  if (values.json) return printJson(list).then(() => 0);
  if (!list.length) return stdout.write("no device is logged in; troupe web login prints a link\n").then(() => 0);
  const when = (t: number) => new Date(t).toISOString().replace("T", " ").slice(0, 16);
  await stdout.write(table(["ID", "SINCE", "LAST SEEN", "DEVICE"], list.map((l) => [l.id, when(l.createdAt), when(l.lastSeenAt), l.device || "-"])));
  return 0;
}

async function status(args: string[]): Promise<number> {
  const { values } = command.parseForm("status", args);
  const { webStatus } = await import("../web/control.ts");
  const s = await webStatus();
  if (values.json) return printJson(s).then(() => 0);
  await stdout.write(`troupe web (pid ${s.pid}) at ${s.origin}, listening on ${s.host}:${s.port}; following ${s.sources.map((x) => `${x.label} (${x.title})`).join(", ")}; ${s.logins} device${s.logins === 1 ? "" : "s"} logged in\n`);
  return 0;
}

async function stop(args: string[]): Promise<number> {
  command.parseForm("stop", args);
  const control = await import("../web/control.ts");
  const s = await control.webStatus();
  await control.stopWeb();
  for (let i = 0; i < 100 && (await control.webRunning()); i++) await new Promise((r) => setTimeout(r, 50));
  await stdout.write(`stopped troupe web (pid ${s.pid})\n`);
  return 0;
}
