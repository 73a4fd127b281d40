import type { Command } from "./command.ts";

/**
 * One subcommand: its name and one-line summary (`troupe --help` lists them without loading any
 * command). Its flags and usage are declared once, in its own module (`command` there), which
 * main.ts loads only for the command that runs: `troupe ask` never loads React.
 */
export interface Entry {
  name: string;
  summary: string;
  load: () => Promise<Command>;
}

const MODE_SUMMARY = {
  discuss: "start an agent that settles an initiative's open decisions with you",
  plan: "start an agent that proposes an initiative's phases",
  refine: "start an agent that proposes a clearer goal for an initiative",
  detail: "start an agent that breaks an approved phase into tasks",
} as const;

/** Every subcommand, in the order `troupe --help` lists them. */
export const COMMANDS: Entry[] = [
  { name: "spawn", summary: "start an agent", load: () => import("./spawn.ts").then((m) => m.command) },
  { name: "profile", summary: "list, show and check agent profiles", load: () => import("./profile.ts").then((m) => m.command) },
  { name: "flow", summary: "agents started on a schedule", load: () => import("./flow.ts").then((m) => m.command) },
  { name: "ls", summary: "list agents", load: () => import("./ls.ts").then((m) => m.command) },
  { name: "logs", summary: "show an agent's output", load: () => import("./logs.ts").then((m) => m.command) },
  { name: "stop", summary: "stop an agent (its whole process group)", load: () => import("./stop.ts").then((m) => m.command) },
  { name: "rm", summary: "remove a finished agent: its worktree, logs and records (its branch stays)", load: () => import("./rm.ts").then((m) => m.command) },
  { name: "resume", summary: "resume an agent's session with answers or a message", load: () => import("./resume.ts").then((m) => m.command) },
  { name: "attach", summary: "take an agent's session over in its CLI's interactive mode, on this terminal", load: () => import("./attach.ts").then((m) => m.command) },
  { name: "ask", summary: "ask an agent, a task's agent or the person, and wait for the answer", load: () => import("./ask.ts").then((m) => m.command) },
  { name: "listen", summary: "wait for the next question addressed to this agent", load: () => import("./listen.ts").then((m) => m.command) },
  { name: "send", summary: "send a message to an agent, the person, every agent or the sender's supervisor", load: () => import("./send.ts").then((m) => m.command) },
  { name: "diff", summary: "show an agent's diff: its branch since its base, then its uncommitted change", load: () => import("./diff.ts").then((m) => m.command) },
  { name: "review", summary: "comment on lines of an agent's diff, and send the comments back to it as one message", load: () => import("./review.ts").then((m) => m.command) },
  { name: "inbox", summary: "print the messages sent to this agent (or to the person)", load: () => import("./inbox.ts").then((m) => m.command) },
  { name: "answer", summary: "answer a conversation", load: () => import("./answer.ts").then((m) => m.command) },
  { name: "permissions", summary: "list the tool calls waiting for your permission", load: () => import("./permissions.ts").then((m) => m.permissions) },
  { name: "allow", summary: "allow a pending tool call (--always: and every call like it, for that agent)", load: () => import("./permissions.ts").then((m) => m.allow) },
  { name: "deny", summary: "deny a pending tool call, telling the agent why", load: () => import("./permissions.ts").then((m) => m.deny) },
  { name: "conversations", summary: "list conversations", load: () => import("./conversations.ts").then((m) => m.command) },
  ...(["discuss", "plan", "refine", "detail"] as const).map((mode): Entry => ({ name: mode, summary: MODE_SUMMARY[mode], load: () => import("./modes.ts").then((m) => m.modeCommand(mode)) })),
  { name: "mcp", summary: "serve troupe's tools over MCP (stdio), or add them to your own agent CLI", load: () => import("./mcp.ts").then((m) => m.command) },
  { name: "signal", summary: "end this agent's run: done, questions or error", load: () => import("./signal.ts").then((m) => m.command) },
  { name: "push", summary: "push an agent's branch to the repository's git remote, with your git", load: () => import("./push.ts").then((m) => m.command) },
  { name: "pr", summary: "push an agent's branch and open its pull request on GitHub (gh, or the API with a token)", load: () => import("./pr.ts").then((m) => m.command) },
  { name: "initiative", summary: "create, list, show, budget, archive an initiative, diff, push its branch or open its pull request", load: () => import("./initiative.ts").then((m) => m.command) },
  { name: "account", summary: "add, list, remove or reset the provider accounts agents run on (yours, in every workspace)", load: () => import("./account.ts").then((m) => m.command) },
  { name: "phases", summary: "an initiative's phases and tasks as a tree", load: () => import("./phases.ts").then((m) => m.command) },
  { name: "approve", summary: "approve proposed phases and tasks (or an initiative's proposed goal)", load: () => import("./approve.ts").then((m) => m.command) },
  { name: "reject", summary: "reject a proposed phase or task, optionally sending it back to its agent", load: () => import("./reject.ts").then((m) => m.command) },
  { name: "edit", summary: "edit a proposed phase or task in $EDITOR", load: () => import("./edit.ts").then((m) => m.command) },
  { name: "prompt", summary: "print what an agent of a mode is told", load: () => import("./prompt.ts").then((m) => m.command) },
  { name: "dispatch", summary: "let the daemon carry an initiative: detail, execute and merge its approved phases", load: () => import("./dispatch.ts").then((m) => m.command) },
  { name: "pin", summary: "run a phase's tasks or a task on one host of the pool", load: () => import("./pin.ts").then((m) => m.command) },
  { name: "retry", summary: "put a blocked or failed task back in the queue", load: () => import("./retry.ts").then((m) => m.command) },
  { name: "gc", summary: "remove finished agents' clean, idle worktrees; report what stays and why", load: () => import("./gc.ts").then((m) => m.command) },
  { name: "service", summary: "install a systemd user unit that starts this workspace's daemon at login", load: () => import("./systemd-unit.ts").then((m) => m.command) },
  { name: "trust", summary: "allow this workspace's config, as it is now, to run its worktree.setup command", load: () => import("./trust.ts").then((m) => m.command) },
  { name: "providers", summary: "list agent CLIs troupe knows: installed, version, proven with, what each supports", load: () => import("./providers.ts").then((m) => m.command) },
  {
    name: "doctor",
    summary: "check what troupe needs here: git, the socket folder, the workspace, the daemon, agent CLIs, tmux, systemd, notify",
    load: () => import("./doctor.ts").then((m) => m.command),
  },
  { name: "hosts", summary: "the hosts dispatch may place work on: this machine and the remotes with slots, each asked now", load: () => import("./hosts.ts").then((m) => m.command) },
  { name: "remote", summary: "add, list, remove remote workspaces (over ssh), or install troupe on one", load: () => import("./remote.ts").then((m) => m.command) },
  { name: "acp-run", summary: "run one agent session over the Agent Client Protocol (started by the daemon)", load: () => import("./acp-run.ts").then((m) => m.command) },
  { name: "web", summary: "the dashboard as a web page for a phone or any browser: start, login, logins, status, stop", load: () => import("./web.ts").then((m) => m.command) },
  { name: "sandbox-net", summary: "the network proxy of an agent's sandbox and its bridge inside (started by the daemon)", load: () => import("./sandbox-net.ts").then((m) => m.command) },
  { name: "proxy", summary: "carry a remote dashboard's link to this machine's workspace daemon (run by ssh)", load: () => import("./proxy.ts").then((m) => m.command) },
  { name: "daemon", summary: "run, start, stop, restart or inspect the workspace daemon", load: () => import("./daemon.ts").then((m) => m.command) },
  { name: "completion", summary: "print a bash, zsh or fish completion script for troupe", load: () => import("./completion.ts").then((m) => m.command) },
];

export function findCommand(name: string): Entry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
