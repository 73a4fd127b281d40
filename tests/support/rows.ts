import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EventBus } from "../../src/events/bus.ts";
import { Logger } from "../../src/events/log.ts";
import { createStore, type Store } from "../../src/store/index.ts";
import { toAgent, type AgentPatch, type AgentRecord, type NewAgent } from "../../src/store/agents.ts";
import type { Agent } from "../../src/protocol/entities.ts";

/**
 * A real store and bus in a temp folder, and agents as rows (no processes): for unit tests of
 * what follows agents (the end-of-run steps). `close()` removes everything.
 */
export class Rows {
  readonly dir = mkdtempSync("/tmp/tr-rows-");
  readonly logPath = join(this.dir, "daemon.log");
  readonly log = new Logger(this.logPath);
  readonly store: Store = createStore(join(this.dir, "troupe.db"), this.log);
  readonly bus = new EventBus(this.store.events, this.log);

  /** An agent row named `name`, then patched (its status, session, ...). */
  agent(name: string, patch: AgentPatch = {}, extra: Partial<NewAgent> = {}): AgentRecord {
    this.store.agents.insert({ id: `ag_${name}`, name, provider: "generic", prompt: null, command: "true", model: null, cwd: this.dir, worktree: null, branch: null, baseRef: null, permissions: "skip", tokenHash: `h_${name}`, signalFile: join(this.dir, name, "signal.json"), ...extra });
    return this.store.agents.update(`ag_${name}`, patch);
  }

  /** The agent as an end-of-run step gets it. */
  view(name: string): Agent {
    return toAgent(this.store.agents.find(name)!);
  }

  close(): void {
    this.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A resume port that records what it was asked (the resume use case's canResume/resumeWith/troupeCommand). */
export class RecordingResumer {
  readonly resumed: { ref: string; prompt: string }[] = [];
  constructor(
    private readonly rows: Rows,
    private readonly resumable = true,
  ) {}
  canResume(ref: string): boolean {
    return this.resumable && this.rows.store.agents.find(ref)?.status === "done";
  }
  async resumeWith(ref: string, prompt: string): Promise<Agent> {
    this.resumed.push({ ref, prompt });
    const rec = this.rows.store.agents.find(ref)!;
    return toAgent(this.rows.store.agents.update(rec.id, { status: "running", session: rec.session + 1 }));
  }
  troupeCommand(): string {
    return "/bin/troupe";
  }
}
