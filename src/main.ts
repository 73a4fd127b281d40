// first, for its side effect: the dashboard restarts itself in place before the other imports load
import { opensDashboard } from "./cli/quiet-start.ts";
import { COMMANDS, findCommand } from "./cli/registry.ts";
import { EXIT, reportError } from "./cli/exit.ts";
import { VERSION, versionInfo, versionLine } from "./self.ts";
import { flushAll, stderr, stdout } from "./cli/streams.ts";
import { program } from "./runtime/program.ts";

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const rows = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n");
  return `troupe ${VERSION}: run many CLI coding agents at once

usage: troupe                 open the dashboard
       troupe COMMAND [...]   (troupe COMMAND --help for its flags)

commands:
${rows}
`;
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v" || first === "version") {
    stdout.write(rest.includes("--json") ? `${JSON.stringify(versionInfo())}\n` : `${versionLine()}\n`);
    return EXIT.ok;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    stdout.write(help());
    return EXIT.ok;
  }
  if (opensDashboard(first)) {
    const { command } = await import("./cli/dashboard.ts");
    return command.run(first === "dashboard" ? rest : argv);
  }
  const spec = findCommand(first ?? "");
  if (!spec) {
    stderr.write(`troupe: unknown command '${first}'\nusage: troupe --help\n`);
    return EXIT.usage;
  }
  let command;
  try {
    command = await spec.load();
    if (rest.includes("--help") || rest.includes("-h")) {
      stdout.write(`usage: ${command.usage}\n`);
      return EXIT.ok;
    }
    return await command.run(rest);
  } catch (err) {
    return reportError(err, command?.usage);
  }
}

// A reader that stopped reading (`troupe ls | head -1`) got what it wanted: end quietly, at once
// (a `logs -f` would otherwise follow forever into a closed pipe).
stdout.onReaderGone(() => program.exit(EXIT.ok));
const code = await main(program.args());
// exiting with output still queued would cut it short for a slow reader
await flushAll();
program.exit(code);
