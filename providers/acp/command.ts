/**
 * The command an ACP `execute` tool call runs, from its raw input, whatever shape the agent gives
 * it: one string (`command`), a list run one after another (Cline's `commands`, a line each, so a
 * deny rule still sees each apart), or an argv (Codex's adapter: `["/bin/bash", "-lc", SCRIPT]`,
 * beside ids and timings), a shell's script as it is and any other argv quoted as a shell would.
 */
export function executeCommand(raw: unknown): string | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const { command, commands } = raw as Record<string, unknown>;
  if (typeof command === "string") return command;
  if (Array.isArray(commands) && commands.length && commands.every((c) => typeof c === "string")) return commands.join("\n");
  if (!Array.isArray(command) || !command.length || !command.every((c) => typeof c === "string")) return undefined;
  const argv = command as string[];
  if (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2];
  return argv.map(quoted).join(" ");
}

/** A word as a shell reads it back: bare when it holds nothing a shell would split or expand. */
const quoted = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`);
