import { TroupeError } from "../errors.ts";
import { COMMON_FLAGS, defineCommand, type Command } from "./command.ts";
import { SHELLS, completionScript, type CompletionCommand, type Shell } from "./completion-scripts.ts";
import { COMMANDS } from "./registry.ts";
import { stdout } from "./streams.ts";

/** `troupe completion bash|zsh|fish`: a completion script derived from every command's declaration. */
export const command = defineCommand(
  {
    synopsis: "troupe completion (bash | zsh | fish)",
    intro: `  bash: eval "$(troupe completion bash)" in ~/.bashrc
  zsh:  eval "$(troupe completion zsh)" in ~/.zshrc, after compinit
  fish: troupe completion fish > ~/.config/fish/completions/troupe.fish`,
    flags: {},
    workspace: false,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { positionals } = command.parse(args);
  const [shell, ...extra] = positionals;
  if (!shell || extra.length || !SHELLS.includes(shell as Shell)) throw new TroupeError("usage", `give one shell: ${SHELLS.join(", ")}`);
  await stdout.write(completionScript(shell as Shell, await completionModel()));
  return 0;
}

/** Every command as its declaration says, the dashboard's flags first. */
export async function completionModel(): Promise<{ flags: string[]; commands: CompletionCommand[] }> {
  const { command: dashboard } = await import("./dashboard.ts");
  const commands = await Promise.all(COMMANDS.map(async (c) => describe(c.name, c.summary, await c.load())));
  return { flags: withCommon(Object.keys(dashboard.spec.flags)), commands };
}

function describe(name: string, summary: string, cmd: Command): CompletionCommand {
  const forms = Object.entries(cmd.spec.forms ?? {}).map(([form, f]) => ({ name: form, flags: withCommon([...f.flags]) }));
  return { name, summary, flags: forms.length ? [] : withCommon(Object.keys(cmd.spec.flags)), forms };
}

const withCommon = (flags: string[]) => [...flags, ...COMMON_FLAGS.filter((f) => !flags.includes(f))];
