import { PROVIDERS, detectProviders } from "../../providers/index.ts";
import { defineCommand, printJson } from "./command.ts";
import { table } from "./format.ts";
import { stdout } from "./streams.ts";

/** `troupe providers [--json]`: which agent CLIs troupe knows and which are installed; no daemon needed. */
export const command = defineCommand(
  { synopsis: "troupe providers [--json]", flags: {}, workspace: false },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const found = await detectProviders();
  if (values.json) {
    printJson(found.map((d) => ({ ...d, displayName: PROVIDERS.find((p) => p.name === d.name)?.displayName ?? d.name })));
    return 0;
  }
  stdout.write(
    table(
      ["NAME", "INSTALLED", "VERSION", "INSTALL"],
      found.map((d) => [d.name, d.installed ? "yes" : "no", d.version ?? "-", d.installed ? "" : d.install]),
    ),
  );
  return 0;
}
