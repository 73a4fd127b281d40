import { COMMANDS, findCommand } from "./cli/registry.ts";
import { EXIT, reportError } from "./cli/exit.ts";
import { VERSION } from "./self.ts";

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
    process.stdout.write(`troupe ${VERSION}\n`);
    return EXIT.ok;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(help());
    return EXIT.ok;
  }
  if (first === undefined || first.startsWith("--workspace") || first === "dashboard") {
    const { run } = await import("./cli/dashboard.ts");
    return run(first === "dashboard" ? rest : argv);
  }
  const spec = findCommand(first);
  if (!spec) {
    process.stderr.write(`troupe: unknown command '${first}'\nusage: troupe --help\n`);
    return EXIT.usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`usage: ${spec.usage}\n`);
    return EXIT.ok;
  }
  try {
    const { run } = await spec.load();
    return await run(rest);
  } catch (err) {
    return reportError(err, spec.usage);
  }
}

process.exit(await main(process.argv.slice(2)));
