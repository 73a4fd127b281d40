import type { PoolHost } from "../protocol/host.ts";
import { connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { table } from "./format.ts";
import { stdout } from "./streams.ts";

/** `troupe hosts [--json]`: the workspace's pool, as its daemon sees it. */
export const command = defineCommand(
  {
    synopsis: "troupe hosts [--json]",
    intro: `  the hosts dispatch may place work on: this machine (local) and each remote given slots
  (troupe remote add and set), each asked by the workspace's daemon over its own link: its agents
  running against its slots, the providers it finds, its accounts; a host that does not answer
  says why`,
    flags: {},
    notes: `  This machine's slots: the workspace config's dispatch.slots (.troupe/config.json), default 4.
  --json: [{"name", "address", "slots", "reachable", "error", "platform", "running", "providers", "accounts": [{"name", "provider", "status", "runsOutAt"}], "checkedAt", "tasks"}]
  tasks: the dispatched tasks under way there (INITIATIVE/TASK).`,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const { client } = await connect(values.workspace);
  const hosts = await client.hosts();
  if (values.json) {
    await printJson(hosts);
    return 0;
  }
  await stdout.write(table(["HOST", "WHERE", "SLOTS", "TASKS", "PROVIDERS", "ACCOUNTS", "STATE"], hosts.map(row)));
  return 0;
}

function row(h: PoolHost): string[] {
  const accounts = h.accounts.map((a) => `${a.name}${a.status === "available" ? "" : ` (${a.status})`}`).join(", ");
  return [h.name, h.address, `${h.running ?? "?"}/${h.slots}`, h.tasks.join(", ") || "-", h.providers.join(",") || "-", accounts || "-", h.reachable ? "reachable" : (h.error ?? "unreachable")];
}
