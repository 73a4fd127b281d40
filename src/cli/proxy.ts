import { existsSync } from "node:fs";
import { TroupeError } from "../errors.ts";
import { autostartingClient } from "../client/connect.ts";
import { serveLink } from "../client/link/proxy.ts";
import { LINK_FEATURES, type Hello } from "../client/link/frames.ts";
import { API_VERSION } from "../protocol/api/index.ts";
import { BUILD_VERSION } from "../self.ts";
import { resolveWorkspace } from "../workspace.ts";
import { defineCommand } from "./command.ts";
import { expandHome } from "./home-path.ts";

export const command = defineCommand(
  {
    synopsis: "troupe proxy --workspace DIR",
    intro: `  the far end of a remote's link: a dashboard or command elsewhere runs it over ssh
  (ssh -T host troupe proxy --workspace DIR) and speaks troupe's link on its stdin and stdout;
  it starts or finds the workspace's daemon here and carries requests to its socket. It listens
  on nothing, and exits when its input closes (the ssh session ended).`,
    flags: {},
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  if (process.stdin.isTTY) throw new TroupeError("usage", "troupe proxy speaks troupe's link on stdin and stdout: ssh runs it for 'troupe --remote NAME' elsewhere");
  const ws = resolveWorkspace({ workspace: values.workspace === undefined ? undefined : expandHome(values.workspace) });
  const hello: Hello = {
    api: API_VERSION,
    version: BUILD_VERSION,
    platform: `${process.platform}-${process.arch}`,
    workspace: ws.root,
    features: LINK_FEATURES,
    ...(!existsSync(ws.root) && { error: { code: "workspace_missing", message: `no folder ${ws.root} on this host` } }),
  };
  await serveLink({ input: process.stdin, output: process.stdout }, autostartingClient(ws).transport, hello);
  // what is still queued for ssh (a greeting that says why not) goes out before the exit; a client
  // gone silent reads nothing more, so not waited for long
  await new Promise<void>((resolve) => {
    if (process.stdout.writableLength === 0) return resolve();
    const bound = setTimeout(resolve, 2_000);
    process.stdout.write("", () => (clearTimeout(bound), resolve()));
  });
  return 0;
}
