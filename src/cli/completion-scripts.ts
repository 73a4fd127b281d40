/**
 * Shell completion scripts, generated from the command declarations (src/cli/command.ts): what a
 * shell offers is what the parser takes, and a new command, form or flag completes with no edit
 * here. Pure: the model in, the script out.
 */

/** What completes after `troupe`: the commands, each with its flags, or its forms and theirs. */
export interface CompletionModel {
  /** The dashboard's own flags (`troupe --remote ...`). */
  flags: string[];
  commands: CompletionCommand[];
}

export interface CompletionCommand {
  name: string;
  summary: string;
  /** Every flag the command takes when it has no forms (common ones included). */
  flags: string[];
  forms: { name: string; flags: string[] }[];
}

export type Shell = "bash" | "zsh" | "fish";
export const SHELLS: readonly Shell[] = ["bash", "zsh", "fish"];

const dashes = (flags: string[]) => flags.map((f) => `--${f}`).join(" ");
/** A word list in single quotes, for any of the three shells (no quote in a declared name or summary survives unescaped). */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function completionScript(shell: Shell, model: CompletionModel): string {
  switch (shell) {
    case "bash":
      return bash(model);
    case "zsh":
      return zsh(model);
    case "fish":
      return fish(model);
  }
}

/** The flags a word completes to, for a command and (when it has forms) the form typed. */
function caseArms(model: CompletionModel, indent: string, form: (c: CompletionCommand) => string, flat: (c: CompletionCommand) => string): string {
  return model.commands.map((c) => `${indent}${c.name}) ${c.forms.length ? form(c) : flat(c)} ;;`).join("\n");
}

function bash(model: CompletionModel): string {
  const arms = caseArms(
    model,
    "    ",
    (c) =>
      `if [ "$COMP_CWORD" -eq 2 ]; then forms=${sq(c.forms.map((f) => f.name).join(" "))}; else case "\${COMP_WORDS[2]}" in ${c.forms.map((f) => `${f.name}) words=${sq(dashes(f.flags))};;`).join(" ")} esac; fi`,
    (c) => `words=${sq(dashes(c.flags))}`,
  );
  return `# troupe completion for bash: eval "$(troupe completion bash)" in ~/.bashrc
_troupe() {
  local cur=\${COMP_WORDS[COMP_CWORD]} words="" forms=""
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    words=${sq(dashes(model.flags))}
    forms=${sq(model.commands.map((c) => c.name).join(" "))}
  else
    case "\${COMP_WORDS[1]}" in
${arms.replace(/^    /gm, "      ")}
    esac
  fi
  # a flag where the word starts with one, the command or form where one is due, else files (-o default)
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$words" -- "$cur")); elif [ -n "$forms" ]; then COMPREPLY=($(compgen -W "$forms" -- "$cur")); fi
}
complete -o default -F _troupe troupe
`;
}

function zsh(model: CompletionModel): string {
  const described = model.commands.map((c) => sq(`${c.name}:${c.summary.replace(/:/g, "\\:")}`)).join(" \\\n    ");
  const arms = caseArms(
    model,
    "    ",
    (c) =>
      `if (( CURRENT == 3 )); then compadd -- ${c.forms.map((f) => f.name).join(" ")}; return; fi; case $words[3] in ${c.forms.map((f) => `${f.name}) flags=(${dashes(f.flags)});;`).join(" ")} esac`,
    (c) => `flags=(${dashes(c.flags)})`,
  );
  return `#compdef troupe
# troupe completion for zsh: eval "$(troupe completion zsh)" in ~/.zshrc (after compinit)
_troupe() {
  local -a commands flags
  commands=(
    ${described}
  )
  if (( CURRENT == 2 )); then
    if [[ $PREFIX == -* ]]; then compadd -- ${dashes(model.flags)}; else _describe -t commands 'troupe command' commands; fi
    return
  fi
  case $words[2] in
${arms}
  esac
  if [[ $PREFIX == -* ]]; then compadd -- $flags; else _files; fi
}
compdef _troupe troupe
`;
}

function fish(model: CompletionModel): string {
  const lines = [
    "# troupe completion for fish: troupe completion fish | source (or > ~/.config/fish/completions/troupe.fish)",
    // the words typed so far: `troupe COMMAND FORM ...`; each condition looks at its own place only
    "function __troupe_at --argument-names n cmd form",
    "    set -l t (commandline -opc)",
    '    test (count $t) -eq $n; and test "$n" -lt 2; and return 0',
    '    test (count $t) -ge 2; and test "$t[2]" = "$cmd"; or return 1',
    '    test -z "$form"; and return 0',
    '    test (count $t) -ge 3; and test "$t[3]" = "$form"',
    "end",
    "function __troupe_form_due --argument-names cmd",
    "    set -l t (commandline -opc)",
    '    test (count $t) -eq 2; and test "$t[2]" = "$cmd"',
    "end",
    // -f: no file beside a command or form name; files where nothing else applies (a flag's value)
    ...model.flags.map((f) => `complete -c troupe -n '__troupe_at 1' -l ${f}`),
    ...model.commands.map((c) => `complete -c troupe -n '__troupe_at 1' -f -a ${c.name} -d ${sq(c.summary)}`),
  ];
  for (const c of model.commands) {
    if (!c.forms.length) {
      lines.push(...c.flags.map((f) => `complete -c troupe -n '__troupe_at 2 ${c.name}' -l ${f}`));
      continue;
    }
    lines.push(`complete -c troupe -n '__troupe_form_due ${c.name}' -f -a ${sq(c.forms.map((f) => f.name).join(" "))}`);
    for (const f of c.forms) lines.push(...f.flags.map((flag) => `complete -c troupe -n '__troupe_at 3 ${c.name} ${f.name}' -l ${flag}`));
  }
  return `${lines.join("\n")}\n`;
}
