import { PROVIDER_NAMES } from "../../providers/names.ts";
import type { CommandSpec } from "./command.ts";

// Only the names: the provider modules load in the commands that use them.
const PROVIDER_LIST = `${PROVIDER_NAMES.slice(0, -1).join(", ")} or ${PROVIDER_NAMES.at(-1)}`;
const W = "  --workspace DIR   the workspace (default: git toplevel of the current folder, or $TROUPE_WORKSPACE)";

const MODE_SUMMARY = {
  discuss: "start an agent that settles an initiative's open decisions with you",
  plan: "start an agent that proposes an initiative's phases",
  refine: "start an agent that proposes a clearer goal for an initiative",
  detail: "start an agent that breaks an approved phase into tasks",
} as const;

/** Every subcommand; main.ts imports only the one that runs, so `troupe ask` never loads React. */
export const COMMANDS: CommandSpec[] = [
  {
    name: "spawn",
    summary: "start an agent",
    usage: `troupe spawn ((--provider | --profile) NAME --prompt TEXT | --command 'SHELL COMMAND') [options]
  --provider NAME     ${PROVIDER_LIST} (default: the profile's; generic with --command)
  --profile NAME      a profile (troupe profile ls): its provider, model, permissions, tools
                      and instructions; this command's own flags win over it
  --prompt TEXT       the task; --prompt-file F reads it from a file
  --command CMD       a shell command to run as the agent (generic provider)
  --name NAME         a name (default: an unused adjective-animal)
  --model M           the provider's model
  --base REF          create the worktree from REF (default: HEAD)
  --no-worktree       run in the workspace itself
  --permissions MODE  skip (default), edits, plan, or ask (Claude Code only: each tool call
                      the rules do not decide waits for you: troupe permissions, allow, deny)
  --allow RULE        allow without asking (repeatable): Bash(npm test*), Edit(src/**), Read
  --deny RULE         refuse (repeatable); a deny wins over any allow
  --budget USD        stop the agent (failed, class budget) once it has spent this
  --timeout T         wall-clock limit per run (minutes, or 90s, 30m, 2h)
  --idle-timeout T    limit without output per run (default: lifecycle.idleTimeoutMinutes, 30)
  --account NAME      run on this account of yours (default: the least recently used available one, if any)
  --json              print the agent as JSON
${W}`,
    load: () => import("./spawn.ts"),
  },
  {
    name: "profile",
    summary: "list, show and check agent profiles",
    usage: `troupe profile ls|show NAME|validate [NAME] [--json]
  profiles are Markdown files with front matter: .troupe/profiles/*.md (the repository's),
  .claude/agents/*.md (Claude Code's subagents), ~/.config/troupe/profiles/*.md (yours);
  the first of a name wins. validate exits 1 when a file is broken, naming file, field, reason.
${W}`,
    load: () => import("./profile.ts"),
  },
  {
    name: "flow",
    summary: "agents started on a schedule",
    usage: `troupe flow add NAME --cron EXPR (--profile P | --provider P) --prompt TEXT [--gate SCRIPT]
troupe flow ls | show NAME | rm NAME | enable NAME | disable NAME | run NAME
  --cron EXPR     5 or 6 fields, or @hourly/@daily/...: the daemon's local time
  --gate SCRIPT   a shell command run first, with the flow's environment: its JSON output
                  decides ({"run": false} skips) and fills [[key]] in the prompt
  each run gets the environment of the shell that added the flow; a run missed while
  no daemon ran runs once at its next start; a run while the last one is live is skipped
${W}`,
    load: () => import("./flow.ts"),
  },
  {
    name: "ls",
    summary: "list agents",
    usage: `troupe ls [--json]\n${W}`,
    load: () => import("./ls.ts"),
  },
  {
    name: "logs",
    summary: "show an agent's output",
    usage: `troupe logs AGENT [-f] [--raw] [--session N]
  -f, --follow   follow live output until the agent ends
  --raw          the lines as the CLI wrote them
  --session N    only session N (each resume is a new session)
${W}`,
    load: () => import("./logs.ts"),
  },
  {
    name: "stop",
    summary: "stop an agent (its whole process group)",
    usage: `troupe stop AGENT [--json]\n${W}`,
    load: () => import("./stop.ts"),
  },
  {
    name: "rm",
    summary: "remove a finished agent: its worktree, logs and records (its branch stays)",
    usage: `troupe rm [--force] AGENT [AGENT ...]
  refuses an agent whose worktree has uncommitted changes, naming them;
  --force saves them as a commit on the agent's branch first (branches always stay)
${W}`,
    load: () => import("./rm.ts"),
  },
  {
    name: "resume",
    summary: "resume an agent's session with answers or a message",
    usage: `troupe resume AGENT [--answer QID=TEXT ...] [--message TEXT] [--json]\n${W}`,
    load: () => import("./resume.ts"),
  },
  {
    name: "attach",
    summary: "take an agent's session over in its CLI's interactive mode, on this terminal",
    usage: `troupe attach AGENT [--stop] [--json]
  a waiting, done, failed or stopped agent: its provider's interactive CLI resumes the same
  session in the agent's worktree, with the agent's environment (claude --resume, codex resume,
  gemini --resume; the generic provider runs its command again with TROUPE_ATTACHED=1). ctrl+c is
  the CLI's. Meanwhile the agent is 'attached' (no retry, message or resume starts it); when the
  CLI exits it is back in the status it had.
  --stop   a running agent is stopped first (else a terminal is asked)
${W}`,
    load: () => import("./attach.ts"),
  },
  {
    name: "ask",
    summary: "ask an agent, a task's agent or the person, and wait for the answer",
    usage: `troupe ask QUESTION (--to AGENT | --task ID | --phase ID | --user) [--timeout MS]
  prints the answer; exit 3 when the timeout passes first (the question is then expired)
${W}`,
    load: () => import("./ask.ts"),
  },
  {
    name: "listen",
    summary: "wait for the next question addressed to this agent",
    usage: `troupe listen [--timeout MS]
  prints {"conversationId","from","fromName","question",...} as one JSON line; exit 3 on timeout
${W}`,
    load: () => import("./listen.ts"),
  },
  {
    name: "send",
    summary: "send a message to an agent, the person, every agent or the sender's supervisor",
    usage: `troupe send (AGENT | --user | --all | --supervisor) TEXT [--json]
  queued until delivered once: through the addressee's inbox, or first in its next run's prompt;
  a done agent is resumed with it when the sender may resume it (the person, or an agent that
  started it); --all only queues; --supervisor is the agent that started the sender (else the person)
${W}`,
    load: () => import("./send.ts"),
  },
  {
    name: "inbox",
    summary: "print the messages sent to this agent (or to the person)",
    usage: `troupe inbox [--wait [--timeout MS]] [--after SEQ] [--json]
  the messages not yet delivered, oldest first, now delivered; --after SEQ: every message after
  that seq, read or not; --wait blocks until one comes (exit 3 when --timeout passes first)
${W}`,
    load: () => import("./inbox.ts"),
  },
  {
    name: "answer",
    summary: "answer a conversation",
    usage: `troupe answer ANSWER --conversation ID\n${W}`,
    load: () => import("./answer.ts"),
  },
  {
    name: "permissions",
    summary: "list the tool calls waiting for your permission",
    usage: `troupe permissions [--all] [--json]
  agents under --permissions ask wait for you on each tool call their rules do not decide;
  --all also lists those decided (by you, by a rule, or cancelled when the agent ended)
${W}`,
    load: () => import("./permissions.ts"),
  },
  {
    name: "allow",
    summary: "allow a pending tool call (--always: and every call like it, for that agent)",
    usage: `troupe allow ID [--always] [--json]
  --always   also adds the rule shown by 'troupe permissions' (Bash(git status), Edit(src/a.ts), ...)
             to the agent's allow rules, so the same call no longer asks
${W}`,
    load: () => import("./permissions.ts").then((m) => ({ run: m.runAllow })),
  },
  {
    name: "deny",
    summary: "deny a pending tool call, telling the agent why",
    usage: `troupe deny ID --reason TEXT [--json]
  the agent receives the reason as the tool's answer and goes on
${W}`,
    load: () => import("./permissions.ts").then((m) => ({ run: m.runDeny })),
  },
  {
    name: "conversations",
    summary: "list conversations",
    usage: `troupe conversations [--pending] [--json]\n${W}`,
    load: () => import("./conversations.ts"),
  },
  ...(["discuss", "plan", "refine", "detail"] as const).map((mode): CommandSpec => ({
    name: mode,
    summary: MODE_SUMMARY[mode],
    usage: `troupe ${mode} ${mode === "detail" ? "PHASE" : "INITIATIVE"} [--provider P] [--model M] [--command CMD] [--json]
  --provider P   the agent CLI (default: claude; generic with --command)
  --model M      the provider's model
  --command CMD  a shell command to run as the agent (generic provider; the prompt is in $TROUPE_PROMPT)
  --json         print the agent as JSON
${W}`,
    load: () => import("./modes.ts").then((m) => ({ run: (args: string[]) => m.runModeCommand(mode, args) })),
  })),
  {
    name: "mcp",
    summary: "serve troupe's tools over MCP (stdio), or add them to your own agent CLI",
    usage: `troupe mcp [--install claude|codex|gemini [--write]]
  without flags: an MCP server on stdin/stdout, acting as $TROUPE_AGENT_TOKEN's agent (else as you);
  every agent troupe starts has it already (tools mcp__troupe__handoff, assign, send_message, ...)
  --install CLI   print the config that adds troupe to your own claude, codex or gemini
  --write         with --install: write it into that CLI's user config (a backup is kept)
${W}`,
    load: () => import("./mcp.ts"),
  },
  {
    name: "signal",
    summary: "end this agent's run: done, questions or error",
    usage: `troupe signal done [--result TEXT]
troupe signal questions --question TEXT [--question TEXT ...]
troupe signal error --error TEXT [--class CLASS]   (CLASS: how troupe takes it, e.g. network is retried)`,
    load: () => import("./signal.ts"),
  },
  {
    name: "initiative",
    summary: "create, list, show, budget, archive an initiative, or diff its branch",
    usage: `troupe initiative new NAME (--goal TEXT | --goal-file F) [--base REF] [--review phases|tasks|none] [--budget USD]
                       [--permissions MODE] [--allow RULE ...] [--deny RULE ...] [--json]
troupe initiative ls [--json]
troupe initiative show INITIATIVE [--json]   the goal, what it spent and the decisions discuss agents took
troupe initiative budget INITIATIVE USD [--json]   a new limit: dispatch goes on under it
troupe initiative archive INITIATIVE [--json]
troupe initiative diff INITIATIVE
  INITIATIVE is an id or a slug; its branch is troupe-initiative/<slug>, made from --base (default: the current branch)
  --review  what the person approves: phases (default; tasks are approved automatically), tasks (both) or none
  --budget  at most this many USD over all its agents: once spent, dispatch starts no new agent
  --permissions, --allow, --deny   the permission policy its agents inherit (see troupe spawn)
${W}`,
    load: () => import("./initiative.ts"),
  },
  {
    name: "account",
    summary: "add, list, remove or reset the provider accounts agents run on (yours, in every workspace)",
    usage: `troupe account add --provider P (--token TOKEN | --config-dir DIR | --env NAME=VALUE ...) [--name N] [--json]
troupe account ls [--json]
troupe account rm ACCOUNT [--json]
troupe account reset ACCOUNT [--json]   it works again: no longer spent nor refused (blocked agents retry at once)
  --token T        claude: a long-lived OAuth token (claude setup-token); codex: CODEX_API_KEY; gemini: GEMINI_API_KEY; '-' reads it from stdin
  --config-dir D   the CLI's config folder, logged in (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME)
  --env NAME=VALUE variables given to the agent as they are
  Each new agent takes the least recently used available account of its provider (spawn --account pins one);
  on a spent quota or a refused credential it moves to the next, or waits (blocked) for the first reset
  (a refused account stays invalid until 'troupe account reset' or rm). Secrets stay in a 0600 file
  under $XDG_STATE_HOME/troupe (never in ls, --json, logs or events); --json: [{"id", "name", "provider",
  "kind", "status": "available"|"exhausted"|"invalid", "exhaustedUntil", "lastUsedAt", "problem"}]
${W}`,
    load: () => import("./account.ts"),
  },
  {
    name: "phases",
    summary: "an initiative's phases and tasks as a tree",
    usage: `troupe phases INITIATIVE [--json]
  --json  {"initiative": {...}, "phases": [{"id", "slug", "title", "status", "dependsOn", "reason", "tasks": [...]}]}
          each task: id, slug, title, status, dependsOn, agent, branch, summary, reason, conflicts
${W}`,
    load: () => import("./phases.ts"),
  },
  {
    name: "approve",
    summary: "approve proposed phases and tasks (or an initiative's proposed goal)",
    usage: `troupe approve ID... | --all INITIATIVE [--json]
  ID is a phase or task (id or INITIATIVE/SLUG), or an initiative whose revised goal to accept
  --all  every proposed phase and task of the initiative
${W}`,
    load: () => import("./approve.ts"),
  },
  {
    name: "reject",
    summary: "reject a proposed phase or task, optionally sending it back to its agent",
    usage: `troupe reject ID --reason TEXT [--revise] [--json]
  --revise  resume the agent that proposed it with the reason, to propose again
${W}`,
    load: () => import("./reject.ts"),
  },
  {
    name: "edit",
    summary: "edit a proposed phase or task in $EDITOR",
    usage: `troupe edit ID [--json]
  opens front matter (title, dependsOn) and the body; a refused save opens again with the error on top
${W}`,
    load: () => import("./edit.ts"),
  },
  {
    name: "prompt",
    summary: "print what an agent of a mode is told",
    usage: `troupe prompt --mode MODE [--initiative REF | --phase REF | --task REF] [--provider P] [--json]
  MODE is discuss, plan or refine (on an initiative), detail (a phase) or execute (a task);
  the prompt is built as a spawn builds it, the agent's id and name shown as AGENT_ID and
  AGENT_NAME; without a ref, on a placeholder target (said on stderr)
  --provider P  whose agent it is (default: claude): it decides how questions reach the agent
  --json        {"mode", "provider", "placeholder", "blocks": [{"id", "text"}]}: the prompt is
                the texts joined by blank lines
${W}`,
    load: () => import("./prompt.ts"),
  },
  {
    name: "dispatch",
    summary: "let the daemon carry an initiative: detail, execute and merge its approved phases",
    usage: `troupe dispatch INITIATIVE [--concurrency N] [--provider P] [--model M] [--json]
troupe dispatch INITIATIVE --stop
  your environment and git identity now are used for every run and merge of this initiative
  --concurrency N  execute agents at once (default 4, at most 64)
  --provider P     ${PROVIDER_LIST} (default: claude; generic with --command)
  --command CMD    a shell command every run starts with, its prompt in $TROUPE_PROMPT (for scripts and tests)
  --stop           start nothing more and merge nothing more; agents under way go on
${W}`,
    load: () => import("./dispatch.ts"),
  },
  {
    name: "retry",
    summary: "put a blocked or failed task back in the queue",
    usage: `troupe retry TASK [--json]\n${W}`,
    load: () => import("./retry.ts"),
  },
  {
    name: "gc",
    summary: "remove finished agents' clean, idle worktrees; report what stays and why",
    usage: `troupe gc [--dry-run] [--json]
  removes worktrees of finished agents that are clean and idle past worktree.keepDays (default 7),
  prunes git's records of worktrees that no longer exist, and lists branches troupe made that no
  agent owns (never deleting a branch); --dry-run changes nothing
${W}`,
    load: () => import("./gc.ts"),
  },
  {
    name: "service",
    summary: "install a systemd user unit that starts this workspace's daemon at login",
    usage: `troupe service install [--print] [--json]
  writes ~/.config/systemd/user/troupe-<hash>.service and enables it, so agents a reboot
  interrupted are picked up at login; --print shows the unit without installing it
${W}`,
    load: () => import("./service.ts"),
  },
  {
    name: "trust",
    summary: "allow this workspace's config, as it is now, to run its worktree.setup command",
    usage: `troupe trust [FILE] [--json]
  FILE: a repository profile (.troupe/profiles/NAME.md) whose mcpServers may then start
  recorded per user by a hash of .troupe/config.json (under $XDG_STATE_HOME/troupe/trusted);
  any change to the file needs a new 'troupe trust'
${W}`,
    load: () => import("./trust.ts"),
  },
  {
    name: "providers",
    summary: "list agent CLIs troupe knows, and whether each is installed",
    usage: `troupe providers [--json]`,
    load: () => import("./providers.ts"),
  },
  {
    name: "daemon",
    summary: "run, start, stop, restart or inspect the workspace daemon",
    usage: `troupe daemon (run | start | stop | status) [--json]
  run      in the foreground (what 'start' runs, detached)
${W}`,
    load: () => import("./daemon.ts"),
  },
];

export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}
