import { rmSync } from "node:fs";
import { TroupeError } from "../errors.ts";
import { defineCommand } from "./command.ts";

/** What the agent's HTTP clients must not bypass the proxy for: left unset inside, everything goes through it. */
const NO_PROXY_VARS = ["NO_PROXY", "no_proxy"];

export const command = defineCommand(
  {
    name: "sandbox-net",
    intro: `  network allow of an agent's sandbox, started by the daemon around the agent's command: the
  proxy, outside the sandbox, lets through the hosts --allow names and refuses others; the
  bridge, inside it, gives the agent's HTTP clients a port on its loopback that reaches the
  proxy. Not for people: troupe spawn starts them.`,
    flags: {
      socket: { type: "string", help: null },
      allow: { type: "string", multiple: true, help: null },
    },
    forms: {
      proxy: { usage: "--socket PATH [--allow HOST]... -- COMMAND [ARGS...]", flags: ["socket", "allow"], run: (args) => run("proxy", args) },
      bridge: { usage: "--socket PATH -- COMMAND [ARGS...]", flags: ["socket"], run: (args) => run("bridge", args) },
    },
    workspace: false,
  },
);

async function run(role: "proxy" | "bridge", args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm(role, args);
  const socket = values.socket;
  if (!socket) throw new TroupeError("usage", `sandbox-net ${role} needs --socket PATH`);
  if (!positionals.length) throw new TroupeError("usage", `sandbox-net ${role} needs the command after --`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const { runChild } = await import("../sandbox/child.ts");
  if (role === "proxy") {
    const { serveAllowProxy } = await import("../sandbox/net-proxy.ts");
    const said = new Set<string>();
    const server = await serveAllowProxy(socket, values.allow ?? [], (host, port) => {
      const key = `${host}:${port}`;
      if (said.has(key)) return;
      said.add(key);
      process.stderr.write(`troupe: sandbox: refused a connection to ${key}: not in sandbox.allowHosts (network allow)\n`);
    });
    server.unref();
    try {
      return await runChild(positionals, env);
    } finally {
      server.close();
      rmSync(socket, { force: true });
    }
  }
  const { bridgeToProxy, proxyEnv } = await import("../sandbox/net-bridge.ts");
  const { server, port } = await bridgeToProxy(socket);
  server.unref();
  for (const k of NO_PROXY_VARS) delete env[k];
  return runChild(positionals, { ...env, ...proxyEnv(port) });
}
