import { PROVIDERS, detectProviders } from "../../providers/index.ts";
import { supportOf } from "../../providers/support.ts";
import { defineCommand, printJson } from "./command.ts";
import { table } from "./format.ts";
import { stdout } from "./streams.ts";

/**
 * `troupe providers [--json]`: which agent CLIs troupe knows, which are installed (and their
 * version), the version troupe was last proven with, and what each supports; no daemon needed.
 */
export const command = defineCommand(
  {
    synopsis: "troupe providers [--json]",
    flags: {},
    notes: `  PROVEN: the CLI version troupe was last proven with (its recorded output and an end-to-end
  run); untested: never run here. TRANSPORT (acp: over the Agent Client Protocol, under troupe's
  runner; headless), LIVE INPUT (a message reaches its running session: mid-turn, next-turn or
  none), RESUME, PERMISSIONS (the modes it honours; ask: each tool
  call to you), MCP (troupe's tools over MCP), COST (its output says what a run cost), PLAN (its plan,
  entries and status, is shown and kept on the agent). An ACP adapter (codex-acp) shows its own
  version; --json names the CLI it embeds (adapterOf)`,
    workspace: false,
  },
  run,
);

const yes = (b: boolean) => (b ? "yes" : "no");

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const found = await detectProviders();
  const rows = found.map((d) => {
    const p = PROVIDERS.find((x) => x.name === d.name)!;
    return { d, p, s: supportOf(p) };
  });
  if (values.json) {
    printJson(rows.map(({ d, p, s }) => ({ ...d, displayName: p.displayName, ...s })));
    return 0;
  }
  stdout.write(
    table(
      ["NAME", "INSTALLED", "VERSION", "PROVEN", "TRANSPORT", "LIVE INPUT", "RESUME", "PERMISSIONS", "MCP", "COST", "PLAN", "INSTALL"],
      rows.map(({ d, p, s }) => [
        d.name,
        yes(d.installed),
        d.version ?? "-",
        // a CLI troupe runs as the person gives it (generic) has nothing to prove
        p.binary === null ? "-" : (s.provenWith ?? "untested"),
        s.transport,
        s.liveInput,
        yes(s.resume),
        s.permissions.join(","),
        yes(s.mcp),
        yes(s.cost),
        yes(s.plan),
        d.installed ? "" : d.install,
      ]),
    ),
  );
  return 0;
}
