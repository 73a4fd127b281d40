import { TroupeError, errorMessage } from "../../errors.ts";
import { ROWS } from "../../protocol/api/index.ts";
import { BUILD_VERSION, VERSION_HEADER } from "../../self.ts";
import { deliver } from "../http.ts";
import { NotDelivered, type Transport } from "../transport.ts";
import { OpenRequestSchema } from "../../protocol/link-frames.ts";
import { Heartbeat, PROXY_DEADLINE, type HeartbeatOptions } from "./heartbeat.ts";
import { FRAME, FrameReader, GREETING, LinkProtocolError, dataFrames, encodeFrame, jsonFrame, readFrame, type Failure, type Hello, type OpenRequest } from "./frames.ts";

/** What the proxy reads frames from and writes frames to: its stdin and stdout. */
export interface ProxyIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/** Headers of a reply that belong to the hop from the daemon, not to the reply. */
const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

/** Endpoints whose body carries the caller's environment, as `METHOD /v1/path` patterns (`:param` one segment). */
const CALLER_ENV = ROWS.filter(([, e]) => e.callerEnv).map(([, e]) => ({ method: e.method, path: new RegExp(`^${e.path.replace(/:[A-Za-z]+/g, "[^/]+")}$`) }));

/**
 * A body's `env` is the environment agents get: a client on another machine sent its own; the
 * host's (this proxy's, as `ssh host` gave it) is the one that means something here.
 */
function withHostEnv(req: OpenRequest, env: NodeJS.ProcessEnv): string | undefined {
  if (req.body === undefined) return undefined;
  const path = req.path.split("?")[0]!;
  if (!CALLER_ENV.some((p) => p.method === req.method && p.path.test(path))) return req.body;
  let body: unknown;
  try {
    body = JSON.parse(req.body);
  } catch {
    return req.body; // the daemon says what is wrong with it
  }
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("env" in body)) return req.body;
  const own: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !k.startsWith("TROUPE_")) own[k] = v;
  return JSON.stringify({ ...body, env: own });
}

/**
 * The host's end of a link (`troupe proxy`): greets, then carries each exchange the client opens
 * to the workspace's daemon through `transport` (which starts the daemon when none answers) and
 * its reply back, several at once. Every request goes out as this troupe's own build, so the
 * daemon here judges versions against the troupe installed here; the client compared API
 * versions from the greeting. Resolves when the client goes away: its end of the input closed
 * (an `ssh -T` session gets no SIGHUP), the output broke, or a client that pings (one that has
 * sent a PING) fell silent with exchanges in flight for `deadline`; what was in flight is cancelled.
 */
export function serveLink(io: ProxyIo, transport: Transport, hello: Hello, deadline: HeartbeatOptions = PROXY_DEADLINE): Promise<void> {
  const inflight = new Map<number, AbortController>();
  /** Watches a client that pings while something is in flight; an older client never pings, and is never watched. */
  let watch: Heartbeat | null = null;
  const settled = (stream: number) => {
    inflight.delete(stream);
    if (inflight.size === 0) watch?.stop();
  };
  let closed = false;
  let drained: Promise<void> | null = null;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const close = () => {
    if (closed) return;
    closed = true;
    watch?.stop();
    for (const ctrl of inflight.values()) ctrl.abort();
    inflight.clear();
    finish();
  };

  /** One frame out, in order; waits while the client reads slower than the daemon writes (the daemon's own bounds apply then). */
  const send = async (bytes: Uint8Array | string): Promise<void> => {
    while (drained && !closed) await drained;
    if (closed) return;
    if (!io.output.write(bytes)) drained = new Promise<void>((resolve) => io.output.once("drain", () => ((drained = null), resolve())));
  };

  const exchange = async (stream: number, req: OpenRequest) => {
    const ctrl = new AbortController();
    inflight.set(stream, ctrl);
    watch?.start();
    try {
      const headers = { ...req.headers, [VERSION_HEADER]: BUILD_VERSION };
      const res = await deliver(transport, req.path, { method: req.method, headers, body: withHostEnv(req, process.env), signal: ctrl.signal });
      const out: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        if (!HOP.has(k)) out[k] = v;
      });
      await send(jsonFrame(FRAME.head, stream, { status: res.status, headers: out }));
      if (res.body) {
        for await (const chunk of res.body) {
          if (ctrl.signal.aborted) return;
          for (const f of dataFrames(stream, chunk)) await send(f);
        }
      }
      await send(encodeFrame(FRAME.end, stream));
    } catch (err) {
      if (ctrl.signal.aborted) return;
      const failure: Failure = { message: errorMessage(err), delivered: !(err instanceof NotDelivered), ...(err instanceof TroupeError && { code: err.code }) };
      await send(jsonFrame(FRAME.fail, stream, failure));
    } finally {
      if (inflight.get(stream) === ctrl) settled(stream);
    }
  };

  const reader = new FrameReader();
  io.input.on("data", (bytes: Uint8Array) => {
    if (closed) return;
    watch?.heard();
    let frames;
    try {
      frames = reader.push(bytes);
    } catch (err) {
      if (!(err instanceof LinkProtocolError)) throw err;
      return close(); // not a troupe client: nothing more it says can be read
    }
    for (const f of frames) {
      if (f.type === FRAME.open) {
        let req: OpenRequest;
        try {
          req = readFrame(f, OpenRequestSchema);
        } catch (err) {
          void send(jsonFrame(FRAME.fail, f.stream, { message: `the link's client sent a malformed request: ${errorMessage(err)}`, delivered: false } satisfies Failure));
          continue;
        }
        void exchange(f.stream, req);
      } else if (f.type === FRAME.ping) {
        // answered at once, whatever the daemon is doing: it says the link and this proxy live
        void send(encodeFrame(FRAME.pong, 0, f.payload));
        if (!watch) {
          watch = new Heartbeat(deadline, () => undefined, close);
          if (inflight.size > 0) watch.start();
        }
      } else if (f.type === FRAME.cancel) {
        inflight.get(f.stream)?.abort();
        settled(f.stream);
      }
    }
  });
  io.input.on("end", close);
  io.input.on("close", close);
  io.input.on("error", close);
  // EPIPE: the client (or ssh) is gone
  io.output.on("error", close);

  // both queued now, before any reply or PONG can be
  void send(GREETING);
  const greeted = send(jsonFrame(FRAME.hello, 0, hello));
  // a proxy that cannot serve says why in its greeting, and is done
  if (hello.error) void greeted.then(close);
  return done;
}
