import { isWire, type EventBus } from "../events/bus.ts";
import type { Logger } from "../events/log.ts";
import type { Notice } from "../protocol/notice.ts";
import type { NotifyConfig } from "../protocol/user-config.ts";
import { userConfigReader } from "../user-config.ts";
import { noticeOf, type NameOf } from "./reasons.ts";
import { runNotifyCommand, type CommandOutcome, type NotifyRun } from "./run-command.ts";
import { SentLog } from "./sent.ts";

/** `notify.quietSeconds` when the config names none: one notice per agent and reason a minute. */
const DEFAULT_QUIET_SECONDS = 60;
/** A notify command is a quick hand-off (notify-send, curl): longer than this, it is killed and logged. */
const NOTIFY_TIMEOUT_MS = 15_000;
/** Commands running at once; past this a notice is dropped (logged), never queued without end. */
const MAX_RUNNING = 4;

export interface NotifierDeps {
  bus: EventBus;
  log: Logger;
  /** The workspace root: the command's working folder and its `TROUPE_WORKSPACE`. */
  root: string;
  /** Where the keys of notices already acted on are kept (the workspace's state folder). */
  sentPath: string;
  nameOf: NameOf;
  /** The user's `notify` section, read at each notice (an edit applies without a restart). */
  config?: () => NotifyConfig;
  timeoutMs?: number;
  now?: () => number;
  run?: (r: NotifyRun) => Promise<CommandOutcome>;
}

/**
 * Runs the user's `notify.command` when an agent needs the person or ends, whether or not a
 * dashboard is open. It follows the bus, which carries only live events (the event log's replay
 * goes to subscribers over the API, never here), and it remembers each occurrence it acted on
 * (SentLog), so a new daemon publishing an agent's state again notifies nothing twice.
 */
export class Notifier {
  private readonly sent: SentLog;
  private readonly lastAt = new Map<string, number>();
  /** The user's config, read again when its file changed (an edit applies without a restart). */
  private readonly userConfig = userConfigReader();
  private running = 0;
  private off: (() => void) | null = null;
  private lastConfigError: string | null = null;
  /** Attached sessions that ended (`agentId:session`): the agent's status after them is not news. */
  private readonly detached = new Set<string>();

  constructor(private readonly d: NotifierDeps) {
    this.sent = new SentLog(d.sentPath, d.log);
  }

  start(): void {
    this.off = this.d.bus.subscribe((p) => {
      // the person's own interactive session ended (troupe attach): the status it returns to was
      // notified already, and the person was there
      if (p.event.type === "agent:detached") this.detached.add(`${p.event.agent.id}:${p.event.session}`);
      if (!isWire(p) || p.event.type === "agent:output") return;
      if (p.event.type === "agent:updated" && this.detached.has(`${p.event.agent.id}:${p.event.agent.session}`)) return;
      const n = noticeOf(p.event, this.d.nameOf);
      if (n) this.consider(n);
    });
  }

  /** Stops following; a command already running finishes (or times out) on its own. */
  shutdown(): void {
    this.off?.();
    this.off = null;
  }

  private config(): NotifyConfig | null {
    try {
      const c = this.d.config ? this.d.config() : (this.userConfig().notify ?? {});
      this.lastConfigError = null;
      return c;
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      if (msg !== this.lastConfigError) this.d.log.warn(`notify: the user config cannot be read, no notification: ${msg}`);
      this.lastConfigError = msg;
      return null;
    }
  }

  private consider(n: Notice): void {
    if (this.sent.has(n.key)) return;
    const cfg = this.config();
    if (!cfg?.command) return;
    // acted on from here, sent or not: a restart must not bring it back
    this.sent.add(n.key);
    const now = (this.d.now ?? Date.now)();
    const quietMs = (cfg.quietSeconds ?? DEFAULT_QUIET_SECONDS) * 1000;
    const slot = `${n.agentId}\n${n.reason}`;
    const last = this.lastAt.get(slot);
    if (last !== undefined && now - last < quietMs) return;
    if (this.running >= MAX_RUNNING) {
      this.d.log.warn(`notify: ${MAX_RUNNING} commands still running; dropped ${n.reason} of ${n.agentName}`);
      return;
    }
    this.lastAt.set(slot, now);
    if (this.lastAt.size > 1000) for (const [k, at] of this.lastAt) if (now - at >= quietMs) this.lastAt.delete(k);
    this.send(cfg.command, n);
  }

  private send(command: string, n: Notice): void {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, {
      TROUPE_AGENT: n.agentName,
      TROUPE_AGENT_ID: n.agentId,
      TROUPE_REASON: n.reason,
      TROUPE_TEXT: n.text,
      TROUPE_WORKSPACE: this.d.root,
    });
    this.running++;
    const run = this.d.run ?? runNotifyCommand;
    run({ command, env, cwd: this.d.root, timeoutMs: this.d.timeoutMs ?? NOTIFY_TIMEOUT_MS })
      .then((r) => {
        if (r.ok) this.d.log.info(`notify: ${n.reason} of ${n.agentName} sent`);
        else this.d.log.warn(`notify: the command for ${n.reason} of ${n.agentName} failed (${r.why}); not retried`);
      })
      .catch((err) => this.d.log.error("notify: running the command", err))
      .finally(() => this.running--);
  }
}
