/**
 * The link between a client and a remote workspace's daemon: `ssh host troupe proxy` carries the
 * daemon's HTTP exchanges over one byte stream (its stdio), several at a time, as frames. Pure:
 * encoding and decoding only; `link-transport.ts` is the client's end, `proxy.ts` the host's.
 *
 * The proxy first writes the greeting line (`troupe-link 1\n`: whatever a login shell printed
 * before it is skipped), then frames, the first of them a HELLO. A frame is a 9-byte header
 * (type, stream, payload length; big-endian) and its payload. Streams are numbered by the client,
 * one per exchange; stream 0 is the link itself.
 */

import type { ZodType } from "zod";

/** The framing's own version, in the greeting: a proxy that frames differently is told apart before any frame. */
const LINK_VERSION = 1;
export const GREETING = `troupe-link ${LINK_VERSION}\n`;
const GREETING_PREFIX = "troupe-link ";

export const FRAME = {
  /** proxy → client, stream 0: who answers (JSON `Hello`). */
  hello: 1,
  /** client → proxy: an exchange begins (JSON `OpenRequest`). */
  open: 2,
  /** proxy → client: the reply's status and headers (JSON, `ReplyHeadSchema`). */
  head: 3,
  /** proxy → client: bytes of the reply's body. */
  data: 4,
  /** proxy → client: the reply's body is whole. */
  end: 5,
  /** proxy → client: the exchange failed (JSON `Failure`). */
  fail: 6,
  /** client → proxy: the client no longer wants the reply. */
  cancel: 7,
  /** client → proxy, stream 0: are you there? Sent only to a proxy whose HELLO lists `ping`. */
  ping: 8,
  /** proxy → client, stream 0: the answer to a PING, its payload echoed. */
  pong: 9,
} as const;
export type FrameType = (typeof FRAME)[keyof typeof FRAME];

const TYPES = new Set<number>(Object.values(FRAME));
const HEADER = 9;
/** Larger is a broken or foreign stream, not a frame: the link closes. */
const MAX_PAYLOAD = 16 * 1024 * 1024;

export interface Frame {
  type: FrameType;
  stream: number;
  payload: Uint8Array;
}

export type { Failure, Hello, OpenRequest } from "../../protocol/link-frames.ts";

export type LinkFeature = "ping";
/** What this troupe's proxy says it understands (src/cli/proxy.ts). */
export const LINK_FEATURES: LinkFeature[] = ["ping"];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeFrame(type: FrameType, stream: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  if (payload.length > MAX_PAYLOAD) throw new RangeError(`frame payload of ${payload.length} bytes exceeds ${MAX_PAYLOAD}`);
  const out = new Uint8Array(HEADER + payload.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, type);
  view.setUint32(1, stream);
  view.setUint32(5, payload.length);
  out.set(payload, HEADER);
  return out;
}

export function jsonFrame(type: FrameType, stream: number, value: unknown): Uint8Array {
  return encodeFrame(type, stream, encoder.encode(JSON.stringify(value)));
}

const NAMES: Record<FrameType, string> = { 1: "HELLO", 2: "OPEN", 3: "HEAD", 4: "DATA", 5: "END", 6: "FAIL", 7: "CANCEL", 8: "PING", 9: "PONG" };

/** A frame's name in messages: `HELLO`. */
function frameName(type: FrameType): string {
  return NAMES[type];
}

/**
 * A frame's JSON payload, read through its schema: the one way either side reads what the other
 * sent. Anything else (not JSON, `null`, a field missing or of the wrong kind) is a
 * LinkProtocolError saying which frame and what is wrong with it, never the payload itself.
 */
export function readFrame<T>(f: Frame, schema: ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(f.payload));
  } catch {
    throw new LinkProtocolError(`its ${frameName(f.type)} frame is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  throw new LinkProtocolError(`its ${frameName(f.type)} frame is malformed${where}: ${issue?.message ?? "not what troupe sends"}`);
}

/** Bytes of a body split into DATA frames no larger than MAX_PAYLOAD. */
export function* dataFrames(stream: number, bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += MAX_PAYLOAD) yield encodeFrame(FRAME.data, stream, bytes.subarray(at, at + MAX_PAYLOAD));
}

/** Thrown by the reader on bytes that are no frame: the link is useless from there on. */
export class LinkProtocolError extends Error {}

/**
 * Frames from a byte stream read in pieces of any size. With `greeting`, the bytes up to the
 * greeting line are skipped first (a login shell's noise), up to `noiseLimit`.
 */
export class FrameReader {
  private buf: Uint8Array = new Uint8Array(0);
  private greeted: boolean;
  /** What came before the greeting (a shell's banner, an error of the remote command). */
  noise = "";

  constructor(opts: { greeting?: boolean; noiseLimit?: number } = {}) {
    this.greeted = !opts.greeting;
    this.noiseLimit = opts.noiseLimit ?? 64 * 1024;
  }
  private readonly noiseLimit: number;

  get greetingSeen(): boolean {
    return this.greeted;
  }

  /** Part of a frame has come and the rest not yet. */
  get midFrame(): boolean {
    return this.greeted && this.buf.length > 0;
  }

  push(bytes: Uint8Array): Frame[] {
    this.buf = this.buf.length ? concat(this.buf, bytes) : bytes;
    if (!this.greeted && !this.skipToGreeting()) return [];
    const frames: Frame[] = [];
    let at = 0;
    while (this.buf.length - at >= HEADER) {
      const view = new DataView(this.buf.buffer, this.buf.byteOffset + at, HEADER);
      const type = view.getUint8(0);
      const stream = view.getUint32(1);
      const length = view.getUint32(5);
      if (!TYPES.has(type)) throw new LinkProtocolError(`unknown frame type ${type}`);
      if (length > MAX_PAYLOAD) throw new LinkProtocolError(`frame of ${length} bytes`);
      if (this.buf.length - at < HEADER + length) break;
      // a copy: the payload outlives the buffer it came in
      frames.push({ type: type as FrameType, stream, payload: this.buf.slice(at + HEADER, at + HEADER + length) });
      at += HEADER + length;
    }
    this.buf = at === this.buf.length ? new Uint8Array(0) : this.buf.subarray(at);
    return frames;
  }

  /** True once the greeting line has been read (and dropped). */
  private skipToGreeting(): boolean {
    for (;;) {
      const nl = this.buf.indexOf(10);
      if (nl === -1) {
        if (this.buf.length > this.noiseLimit) throw new LinkProtocolError(`no troupe proxy greeting in the first ${this.noiseLimit} bytes`);
        return false;
      }
      const line = decoder.decode(this.buf.subarray(0, nl));
      this.buf = this.buf.subarray(nl + 1);
      if (line.startsWith(GREETING_PREFIX)) {
        const version = Number(line.slice(GREETING_PREFIX.length));
        if (version !== LINK_VERSION) throw new LinkProtocolError(`the host's troupe frames its link as version ${line.slice(GREETING_PREFIX.length)}, this troupe as ${LINK_VERSION}`);
        this.greeted = true;
        return true;
      }
      if (this.noise.length < this.noiseLimit) this.noise += `${line}\n`;
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
