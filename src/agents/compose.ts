import type { AgentDeps } from "./deps.ts";
import { AgentRuntime } from "./runtime.ts";
import { AttachAgent } from "./use-cases/attach.ts";
import { AgentQueries } from "./use-cases/query.ts";
import { RemoveAgent } from "./use-cases/remove.ts";
import { ResumeAgent } from "./use-cases/resume.ts";
import { RetryRun } from "./use-cases/retry.ts";
import { SignalAgent } from "./use-cases/signal.ts";
import { SpawnAgent } from "./use-cases/spawn.ts";
import { StopAgent } from "./use-cases/stop.ts";

/** The agent use cases, each built once over one runtime; a caller is handed the one it uses. */
export interface AgentUnits {
  /** Starts and stops what runs (adoption at start, watchers, timers); no use case of its own. */
  runtime: AgentRuntime;
  query: AgentQueries;
  spawn: SpawnAgent;
  resume: ResumeAgent;
  stop: StopAgent;
  remove: RemoveAgent;
  attach: AttachAgent;
  retry: RetryRun;
  signal: SignalAgent;
}

/** Builds the runtime and its use cases (the daemon's createServices, and tests without a daemon). */
export function composeAgents(d: AgentDeps): AgentUnits {
  const runtime = new AgentRuntime(d);
  const p = runtime.parts;
  return {
    runtime,
    query: new AgentQueries(p),
    spawn: new SpawnAgent(p),
    resume: new ResumeAgent(p),
    stop: new StopAgent(p),
    remove: new RemoveAgent(p),
    attach: new AttachAgent(p),
    retry: new RetryRun(p),
    signal: new SignalAgent(p),
  };
}
