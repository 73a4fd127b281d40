import type { ChildProcess } from "node:child_process";
import { TroupeError, errorMessage, isErrorCode } from "../../errors.ts";
import { API_VERSION } from "../../protocol/api/index.ts";
import { FailureSchema, HelloSchema, ReplyHeadSchema } from "../../protocol/link-frames.ts";
import { NotDelivered, type Exchange, type Transport } from "../transport.ts";
import { HEARTBEAT, Heartbeat, type HeartbeatOptions } from "./heartbeat.ts";
import { remoteText } from "./remote-text.ts";
import { endLinkProcess } from "./link-process.ts";
import { requestTimeoutMs } from "./ssh.ts";
import { FRAME, FrameReader, LinkProtocolError, encodeFrame, jsonFrame, readFrame, type Frame, type Hello, type OpenRequest } from "./frames.ts";

/** The heartbeat's frame: the same few bytes every time. */
const PING = encodeFrame(FRAME.ping, 0);

/** Starts the process at the other end of a link (`ssh -T host troupe proxy ...`), its stdio piped. */
export type OpenLink = () => ChildProcess;

export interface LinkOptions {
  /** The link's name in messages: the remote's name. */
  name: string;
  /** Where it goes, for messages: `user@host:/path`. */
  address: string;
  /** How long the far end gets to greet (ssh's connect and login, the remote troupe's start). */
  timeoutMs: number;
  /** How to get this troupe onto the host when it has none or speaks another API: said in the message. */
  installHint: string;
  /** The link's own liveness check while an exchange is open (HEARTBEAT unless a test says otherwise). */
  heartbeat?: HeartbeatOptions;
  /**
   * How long a request gets for its whole reply, head and body (an event stream: for its head;
   * its body flows for as long as it is read). The heartbeat says whether the far end lives; this
   * bounds what a far end that lives but never finishes (a reply trickling a byte a second) costs.
   * Default: requestTimeoutMs(timeoutMs).
   */
  requestTimeoutMs?: number;
}

interface Pending {
  head: { resolve(res: Response): void; reject(err: Error): void } | null;
  body: ReadableStreamDefaultController<Uint8Array> | null;
  /** The request's deadline, until its reply is whole (an event stream's: until its head). */
  deadline: ReturnType<typeof setTimeout> | null;
}

const isStream = (headers: Record<string, string>) => Object.entries(headers).some(([k, v]) => k.toLowerCase() === "content-type" && v.startsWith("text/event-stream"));

const seconds = (ms: number) => Number((ms / 1000).toFixed(1));

/** The last line a process wrote on stderr that says something (ssh's reason, a shell's "not found"). */
function lastLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  return lines.at(-1) ?? "";
}

/** One live link: a process, its frames, the exchanges open on it. */
class Link {
  readonly ready: Promise<Hello>;
  private readonly reader = new FrameReader({ greeting: true });
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private stderr = "";
  private dead: Error | null = null;
  /** Set once the far end said it answers PING (an older proxy: ssh's keep-alives alone). */
  private beat: Heartbeat | null = null;
  private greet!: { resolve(h: Hello): void; reject(err: Error): void };
  private readonly deadlineMs: number;

  constructor(private readonly child: ChildProcess, private readonly opts: LinkOptions) {
    this.deadlineMs = opts.requestTimeoutMs ?? requestTimeoutMs(opts.timeoutMs);
    this.ready = new Promise<Hello>((resolve, reject) => (this.greet = { resolve, reject }));
    this.ready.catch(() => undefined); // the transport awaits it; a failure before that is not unhandled
    const timer = setTimeout(() => this.fail(new TroupeError("remote_unreachable", `${opts.name} did not answer within ${Math.round(opts.timeoutMs / 1000)} s (${opts.address})`)), opts.timeoutMs);
    this.ready.then(() => clearTimeout(timer), () => clearTimeout(timer));
    child.stdout!.on("data", (bytes: Uint8Array) => this.onBytes(bytes));
    child.stderr!.on("data", (bytes: Uint8Array) => {
      if (this.stderr.length < 16_384) this.stderr += Buffer.from(bytes).toString("utf8");
    });
    // EPIPE once the process is gone: its exit says why
    child.stdin!.on("error", () => undefined);
    child.on("error", (err) => this.fail(new TroupeError("remote_unreachable", `${opts.name}: cannot run ssh: ${err.message}`)));
    child.on("close", (code, signal) => this.fail(this.exitError(code, signal)));
  }

  get alive(): boolean {
    return this.dead === null;
  }

  /** Why the process ended, in one line. */
  private exitError(code: number | null, signal: NodeJS.Signals | null): Error {
    const said = remoteText(lastLine(this.stderr) || lastLine(this.reader.noise));
    const { name, address, installHint } = this.opts;
    if (!this.reader.greetingSeen) {
      if (code === 127) return new TroupeError("remote_incompatible", `${name} has no troupe (${said || "command not found"}); ${installHint}`);
      if (code === 255) return new TroupeError("remote_unreachable", `${name} is unreachable: ${said || `ssh to ${address} failed`}`);
      return new TroupeError("remote_unreachable", `${name}: the link ended before troupe answered (${said || (signal ? `ssh killed by ${signal}` : `exit ${code}`)})`);
    }
    return new TroupeError("daemon_unavailable", `the link to ${name} closed${said ? `: ${said}` : signal ? ` (ssh killed by ${signal})` : ""}`);
  }

  /** Every byte the far end sends comes through here; whatever it is, the outcome is frames read or the link failed in one line. */
  private onBytes(bytes: Uint8Array): void {
    this.beat?.heard();
    try {
      for (const f of this.reader.push(bytes)) {
        if (this.dead) return;
        this.onFrame(f);
      }
    } catch (err) {
      const why = err instanceof LinkProtocolError ? err.message : `reading its frames failed: ${errorMessage(err)}`;
      this.fail(new TroupeError("remote_incompatible", `${this.opts.name} does not speak troupe's link: ${why}`));
    }
  }

  private onFrame(f: Frame): void {
    if (f.type === FRAME.hello) return this.onHello(readFrame(f, HelloSchema));
    const p = this.pending.get(f.stream);
    if (!p) return; // cancelled meanwhile
    switch (f.type) {
      case FRAME.head: {
        const head = readFrame(f, ReplyHeadSchema);
        // an event stream's body flows for as long as it is read: its deadline was its head
        if (isStream(head.headers)) this.clearDeadline(p);
        const body = new ReadableStream<Uint8Array>({
          start: (c) => void (p.body = c),
          cancel: () => this.cancel(f.stream),
        });
        p.head?.resolve(new Response(body, { status: head.status, headers: head.headers }));
        p.head = null;
        return;
      }
      case FRAME.data:
        p.body?.enqueue(f.payload);
        return;
      case FRAME.end:
        p.body?.close();
        this.settled(f.stream);
        return;
      case FRAME.fail: {
        const failure = readFrame(f, FailureSchema);
        const message = remoteText(failure.message);
        const err = failure.code && isErrorCode(failure.code) ? new TroupeError(failure.code, message) : failure.delivered ? new Error(message) : new NotDelivered(message);
        p.head?.reject(err);
        p.body?.error(err);
        this.settled(f.stream);
        return;
      }
    }
  }

  private onHello(hello: Hello): void {
    const { name, installHint } = this.opts;
    if (hello.error) {
      const code = isErrorCode(hello.error.code) ? hello.error.code : "remote_unreachable";
      return this.fail(new TroupeError(code, `${name}: ${remoteText(hello.error.message)}`));
    }
    if (hello.api !== API_VERSION) {
      return this.fail(new TroupeError("remote_incompatible", `${name} runs troupe ${remoteText(hello.version)}, which speaks API ${remoteText(String(hello.api))}; this troupe speaks API ${API_VERSION}: ${installHint}`));
    }
    if (hello.features?.includes("ping")) {
      const hb = this.opts.heartbeat ?? HEARTBEAT;
      const ping = () => this.write(PING);
      this.beat = new Heartbeat(hb, ping, () => this.fail(new TroupeError("daemon_unavailable", `the link to ${name} went silent: nothing from ${this.opts.address} for ${seconds(hb.deadMs)} s`)));
    }
    this.greet.resolve(hello);
  }

  /** An exchange is over; the heartbeat stops with the last one. */
  private settled(stream: number): boolean {
    const p = this.pending.get(stream);
    if (!p) return false;
    this.clearDeadline(p);
    this.pending.delete(stream);
    if (this.pending.size === 0) this.beat?.stop();
    return true;
  }

  private clearDeadline(p: Pending): void {
    if (p.deadline) clearTimeout(p.deadline);
    p.deadline = null;
  }

  /**
   * A request's reply did not come whole in time: it fails in one line, and the far end is told
   * to let go of it. When a frame is arriving (a trickle), every exchange waits behind it: the
   * link fails whole.
   */
  private overdue(stream: number, what: string): void {
    const p = this.pending.get(stream);
    if (!p) return;
    p.deadline = null;
    const { name, address } = this.opts;
    const err = new TroupeError("timeout", `${name} did not answer ${what} within ${seconds(this.deadlineMs)} s (${address})`);
    if (this.reader.midFrame) return this.fail(err);
    this.abandon(stream, p, err);
  }

  /** The request is given up here (overdue, aborted): its caller gets `err`, the far end is told to drop it. */
  private abandon(stream: number, p: Pending, err: Error): void {
    p.head?.reject(err);
    p.head = null;
    try {
      p.body?.error(err);
    } catch {
      // closed already
    }
    this.cancel(stream);
  }

  exchange(path: string, ex: Exchange): Promise<Response> {
    if (this.dead) return Promise.reject(this.dead);
    const stream = this.next++;
    const req: OpenRequest = { method: ex.method, path, headers: ex.headers, ...(ex.body !== undefined && { body: ex.body }) };
    return new Promise<Response>((resolve, reject) => {
      const what = `${ex.method} ${path.split("?")[0]}`;
      const p: Pending = { head: { resolve, reject }, body: null, deadline: setTimeout(() => this.overdue(stream, what), this.deadlineMs) };
      this.pending.set(stream, p);
      const signal = ex.signal;
      if (signal) {
        const abort = () => {
          this.abandon(stream, p, signal.reason instanceof Error ? signal.reason : new DOMException("aborted", "AbortError"));
        };
        if (signal.aborted) return abort();
        signal.addEventListener("abort", abort, { once: true });
      }
      this.write(jsonFrame(FRAME.open, stream, req));
      this.beat?.start();
    });
  }

  private cancel(stream: number): void {
    if (!this.settled(stream) || this.dead) return;
    this.write(encodeFrame(FRAME.cancel, stream));
  }

  private write(bytes: Uint8Array): void {
    // requests are small; the process reads them as they come (a full pipe queues them in the stream)
    this.child.stdin!.write(bytes);
  }

  /** The link is unusable: every exchange on it fails with `err`, the process goes. */
  fail(err: Error): void {
    if (this.dead) return;
    this.dead = err;
    this.beat?.stop();
    this.greet.reject(err);
    for (const p of this.pending.values()) {
      this.clearDeadline(p);
      p.head?.reject(err);
      try {
        p.body?.error(err);
      } catch {
        // closed already
      }
    }
    this.pending.clear();
    this.close();
  }

  /** Ends the process and all it started (ssh under a `$TROUPE_SSH_COMMAND` wrapper: nothing of a link outlives it). */
  close(): void {
    endLinkProcess(this.child);
    this.child.stdin!.destroy();
  }
}

/**
 * A source reached over a link: one process (`ssh -T host troupe proxy --workspace PATH`) carries
 * every exchange, event streams included, as frames. It opens on the first request and again on
 * the first one after it broke; nothing listens on TCP on either side. A host that cannot be
 * reached, has no troupe, or speaks another API version fails each request in one line, within
 * the connect timeout.
 */
export class LinkTransport implements Transport {
  private link: Link | null = null;

  constructor(private readonly open: OpenLink, private readonly opts: LinkOptions) {}

  get address(): string {
    return `${this.opts.name} (${this.opts.address})`;
  }

  /** The far end's greeting, connecting when there is no live link. */
  async hello(): Promise<Hello> {
    return this.connected().ready;
  }

  async send(path: string, ex: Exchange): Promise<Response> {
    const link = this.connected();
    await link.ready;
    return link.exchange(path, ex);
  }

  private connected(): Link {
    if (this.link?.alive) return this.link;
    this.link = new Link(this.open(), this.opts);
    return this.link;
  }

  /** Ends the link (its process with it); a later request opens a new one. */
  close(): void {
    this.link?.fail(new TroupeError("daemon_unavailable", `the link to ${this.opts.name} was closed`));
    this.link = null;
  }
}
